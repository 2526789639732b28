package io.legacygateway.inbox;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class MariaDbPoisonMessageGoesToDeadLetterTest extends PoisonMessageGoesToDeadLetterTest {

    @DynamicPropertySource
    static void targetDatabaseAndBroker(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "target", TestDatabase.MARIADB,
                MariaDbPoisonMessageGoesToDeadLetterTest.class);
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
        // a consumer waiting for a row lock gives up after 1 s (error 1205): a transient failure
        registry.add("gateway.datasources.target.properties.sessionVariables", () -> "innodb_lock_wait_timeout=1");
        StandaloneBroker.register(registry);
    }
}
