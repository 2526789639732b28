package io.legacygateway.inbox;

/**
 * {@link MariaDbInboxUpcastTest} with one message per transaction ({@code batchSize=1}); the parent runs the default
 * batch.
 */
class MariaDbInboxUpcastBatchOfOneTest extends MariaDbInboxUpcastTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
