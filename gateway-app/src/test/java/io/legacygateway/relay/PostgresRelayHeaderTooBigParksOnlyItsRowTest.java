package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;

@OnPostgres
class PostgresRelayHeaderTooBigParksOnlyItsRowTest extends RelayHeaderTooBigParksOnlyItsRowContractTest {

    @Override
    protected String widenCorrelationIdColumn() {
        return "ALTER TABLE outbox ALTER COLUMN correlation_id TYPE TEXT";
    }
}
