package io.legacygateway.inbox;

import io.legacygateway.testsupport.OnPostgres;

/** {@link InboxConsumerInXaContractTest} on PostgreSQL. */
@OnPostgres(dataSource = "target")
class PostgresInboxConsumerInXaTest extends InboxConsumerInXaContractTest {
}
