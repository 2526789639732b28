package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;

@OnPostgres
class PostgresXaBrokerKilledBetweenPrepareAndCommitTest extends XaBrokerKilledBetweenPrepareAndCommitContractTest {
}
