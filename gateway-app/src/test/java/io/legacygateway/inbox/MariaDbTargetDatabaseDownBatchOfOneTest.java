package io.legacygateway.inbox;

/** {@link MariaDbTargetDatabaseDownTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class MariaDbTargetDatabaseDownBatchOfOneTest extends MariaDbTargetDatabaseDownTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
