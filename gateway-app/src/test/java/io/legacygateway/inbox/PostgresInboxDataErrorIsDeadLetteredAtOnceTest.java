package io.legacygateway.inbox;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import java.util.List;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class PostgresInboxDataErrorIsDeadLetteredAtOnceTest extends InboxDataErrorIsDeadLetteredAtOnceTest {

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "target", TestDatabase.POSTGRES,
                PostgresInboxDataErrorIsDeadLetteredAtOnceTest.class);
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }

    /** Too long, and a NUL character, which PostgreSQL text cannot hold. */
    @Override
    protected List<String> refusedCustomers() {
        return List.of("c".repeat(65), "nul\u0000char");
    }
}
