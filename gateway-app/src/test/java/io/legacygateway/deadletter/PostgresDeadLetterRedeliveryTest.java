package io.legacygateway.deadletter;

import io.legacygateway.testsupport.OnPostgres;

@OnPostgres(dataSource = "target")
class PostgresDeadLetterRedeliveryTest extends DeadLetterRedeliveryContractTest {
}
