package io.legacygateway.inbox;

/** {@link PostgresTargetDatabaseDownTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class PostgresTargetDatabaseDownBatchOfOneTest extends PostgresTargetDatabaseDownTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
