package io.legacygateway.inbox;

import io.legacygateway.testsupport.OnMariaDb;
import io.legacygateway.testsupport.StandaloneBroker;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@OnMariaDb(dataSource = "target")
class MariaDbPoisonMessageGoesToDeadLetterTest extends PoisonMessageGoesToDeadLetterTest {

    @DynamicPropertySource
    static void targetDatabaseAndBroker(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
        // a consumer waiting for a row lock gives up after 1 s (error 1205): a transient failure
        registry.add("gateway.datasources.target.properties.sessionVariables", () -> "innodb_lock_wait_timeout=1");
        StandaloneBroker.register(registry);
    }
}
