package io.legacygateway.inbox;

import io.legacygateway.testsupport.OnMariaDb;

/** {@link InboxConsumerInXaContractTest} on MariaDB. */
@OnMariaDb(dataSource = "target")
class MariaDbInboxConsumerInXaTest extends InboxConsumerInXaContractTest {
}
