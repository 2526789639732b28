package io.legacygateway.inbox;

/**
 * {@link PostgresInboxUpcastTest} with one message per transaction ({@code batchSize=1}); the parent runs the default
 * batch.
 */
class PostgresInboxUpcastBatchOfOneTest extends PostgresInboxUpcastTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
