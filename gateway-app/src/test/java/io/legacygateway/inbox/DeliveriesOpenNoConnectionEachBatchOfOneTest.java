package io.legacygateway.inbox;

/** {@link DeliveriesOpenNoConnectionEachTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class DeliveriesOpenNoConnectionEachBatchOfOneTest extends DeliveriesOpenNoConnectionEachTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
