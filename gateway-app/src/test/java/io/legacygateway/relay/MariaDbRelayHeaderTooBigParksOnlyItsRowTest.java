package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbRelayHeaderTooBigParksOnlyItsRowTest extends RelayHeaderTooBigParksOnlyItsRowContractTest {

    @Override
    protected String widenCorrelationIdColumn() {
        return "ALTER TABLE outbox MODIFY correlation_id LONGTEXT NULL";
    }
}
