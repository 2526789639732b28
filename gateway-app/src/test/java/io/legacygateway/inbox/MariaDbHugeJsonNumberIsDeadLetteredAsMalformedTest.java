package io.legacygateway.inbox;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class MariaDbHugeJsonNumberIsDeadLetteredAsMalformedTest extends HugeJsonNumberIsDeadLetteredAsMalformedTest {

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "target", TestDatabase.MARIADB,
                MariaDbHugeJsonNumberIsDeadLetteredAsMalformedTest.class);
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }
}
