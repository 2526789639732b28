package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbReusedEventIdIsNotDroppedTest extends ReusedEventIdIsNotDroppedTest {

    @Override
    protected void truncateRestartingKeys() {
        rows.jdbc().execute("TRUNCATE TABLE outbox"); // resets AUTO_INCREMENT
    }
}
