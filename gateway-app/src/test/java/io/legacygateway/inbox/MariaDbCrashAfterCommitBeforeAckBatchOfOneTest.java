package io.legacygateway.inbox;

/** {@link MariaDbCrashAfterCommitBeforeAckTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class MariaDbCrashAfterCommitBeforeAckBatchOfOneTest extends MariaDbCrashAfterCommitBeforeAckTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
