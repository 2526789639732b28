package io.legacygateway.relay;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class PostgresRelayHeaderTooBigParksOnlyItsRowTest extends RelayHeaderTooBigParksOnlyItsRowContractTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.POSTGRES,
                PostgresRelayHeaderTooBigParksOnlyItsRowTest.class);
    }

    @Override
    protected String widenCorrelationIdColumn() {
        return "ALTER TABLE outbox ALTER COLUMN correlation_id TYPE TEXT";
    }
}
