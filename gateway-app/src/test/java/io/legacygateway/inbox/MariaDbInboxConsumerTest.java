package io.legacygateway.inbox;

import io.legacygateway.testsupport.OnMariaDb;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@OnMariaDb(dataSource = "target")
class MariaDbInboxConsumerTest extends InboxConsumerContractTest {

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }
}
