package io.legacygateway.inbox;

/** {@link MariaDbPoisonMessageGoesToDeadLetterTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class MariaDbPoisonMessageGoesToDeadLetterBatchOfOneTest extends MariaDbPoisonMessageGoesToDeadLetterTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
