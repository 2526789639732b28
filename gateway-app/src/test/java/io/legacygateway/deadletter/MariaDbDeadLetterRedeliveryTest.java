package io.legacygateway.deadletter;

import io.legacygateway.testsupport.OnMariaDb;

@OnMariaDb(dataSource = "target")
class MariaDbDeadLetterRedeliveryTest extends DeadLetterRedeliveryContractTest {
}
