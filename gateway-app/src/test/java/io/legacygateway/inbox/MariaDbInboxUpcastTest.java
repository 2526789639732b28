package io.legacygateway.inbox;

import io.legacygateway.testsupport.OnMariaDb;

@OnMariaDb(dataSource = "target")
class MariaDbInboxUpcastTest extends InboxUpcastContractTest {
}
