package io.legacygateway.deadletter;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class PostgresDeadLetterRedeliveryTest extends DeadLetterRedeliveryContractTest {

    @DynamicPropertySource
    static void targetDatabaseAndBroker(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "target", TestDatabase.POSTGRES, PostgresDeadLetterRedeliveryTest.class);
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "4");
        StandaloneBroker.register(registry);
    }
}
