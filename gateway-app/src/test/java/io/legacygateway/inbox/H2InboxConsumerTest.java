package io.legacygateway.inbox;

import io.legacygateway.testsupport.OnH2;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The demo's database, as an extra fast lane: never the only database a guarantee is tested on. */
@OnH2(dataSource = "target")
class H2InboxConsumerTest extends InboxConsumerContractTest {

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }
}
