package io.legacygateway.inbox;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The demo's database, as an extra fast lane: never the only database a guarantee is tested on. */
class H2InboxConsumerTest extends InboxConsumerContractTest {

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "target", TestDatabase.H2, H2InboxConsumerTest.class);
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }
}
