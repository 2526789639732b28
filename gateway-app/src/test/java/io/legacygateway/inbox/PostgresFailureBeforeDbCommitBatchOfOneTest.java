package io.legacygateway.inbox;

/** {@link PostgresFailureBeforeDbCommitTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class PostgresFailureBeforeDbCommitBatchOfOneTest extends PostgresFailureBeforeDbCommitTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
