package io.legacygateway.inbox;

import io.legacygateway.testsupport.OnPostgres;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@OnPostgres(dataSource = "target")
class PostgresInboxConsumerTest extends InboxConsumerContractTest {

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }
}
