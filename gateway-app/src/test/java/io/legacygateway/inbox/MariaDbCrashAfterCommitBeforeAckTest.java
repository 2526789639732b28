package io.legacygateway.inbox;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class MariaDbCrashAfterCommitBeforeAckTest extends CrashAfterCommitBeforeAckTest {

    @DynamicPropertySource
    static void targetDatabaseAndBroker(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "target", TestDatabase.MARIADB, MariaDbCrashAfterCommitBeforeAckTest.class);
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
        StandaloneBroker.register(registry);
    }
}
