package io.legacygateway.inbox;

/** {@link PostgresCrashAfterCommitBeforeAckTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class PostgresCrashAfterCommitBeforeAckBatchOfOneTest extends PostgresCrashAfterCommitBeforeAckTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
