package io.legacygateway.relay;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class MariaDbRelayHeaderTooBigParksOnlyItsRowTest extends RelayHeaderTooBigParksOnlyItsRowContractTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.MARIADB,
                MariaDbRelayHeaderTooBigParksOnlyItsRowTest.class);
    }

    @Override
    protected String widenCorrelationIdColumn() {
        return "ALTER TABLE outbox MODIFY correlation_id LONGTEXT NULL";
    }
}
