package io.legacygateway.inbox;

import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.StandaloneBroker;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@OnPostgres(dataSource = "target")
class PostgresPoisonMessageGoesToDeadLetterTest extends PoisonMessageGoesToDeadLetterTest {

    @DynamicPropertySource
    static void targetDatabaseAndBroker(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
        // a consumer waiting for a row lock gives up after 500 ms (SQLState 55P03): a transient failure
        registry.add("gateway.datasources.target.properties.options", () -> "-c lock_timeout=500");
        StandaloneBroker.register(registry);
    }
}
