package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;

@OnPostgres
class PostgresReusedEventIdIsNotDroppedTest extends ReusedEventIdIsNotDroppedTest {

    @Override
    protected void truncateRestartingKeys() {
        rows.jdbc().execute("TRUNCATE outbox RESTART IDENTITY"); // restarts the identity
    }
}
