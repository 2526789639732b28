package io.legacygateway.inbox;

/** {@link MariaDbDuplicateDeliveryTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class MariaDbDuplicateDeliveryBatchOfOneTest extends MariaDbDuplicateDeliveryTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
