package io.legacygateway.relay;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class MariaDbReusedEventIdIsNotDroppedTest extends ReusedEventIdIsNotDroppedTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.MARIADB, MariaDbReusedEventIdIsNotDroppedTest.class);
    }

    @Override
    protected void truncateRestartingKeys() {
        rows.jdbc().execute("TRUNCATE TABLE outbox"); // resets AUTO_INCREMENT
    }
}
