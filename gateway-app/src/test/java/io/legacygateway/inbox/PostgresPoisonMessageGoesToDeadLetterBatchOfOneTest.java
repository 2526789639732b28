package io.legacygateway.inbox;

/** {@link PostgresPoisonMessageGoesToDeadLetterTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class PostgresPoisonMessageGoesToDeadLetterBatchOfOneTest extends PostgresPoisonMessageGoesToDeadLetterTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
