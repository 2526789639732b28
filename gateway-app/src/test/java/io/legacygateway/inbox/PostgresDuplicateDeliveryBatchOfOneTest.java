package io.legacygateway.inbox;

/** {@link PostgresDuplicateDeliveryTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class PostgresDuplicateDeliveryBatchOfOneTest extends PostgresDuplicateDeliveryTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
