package io.legacygateway.inbox;

/** {@link MariaDbFailureBeforeDbCommitTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class MariaDbFailureBeforeDbCommitBatchOfOneTest extends MariaDbFailureBeforeDbCommitTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
