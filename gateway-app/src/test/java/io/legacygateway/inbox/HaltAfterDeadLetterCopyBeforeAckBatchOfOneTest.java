package io.legacygateway.inbox;

/** {@link HaltAfterDeadLetterCopyBeforeAckTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class HaltAfterDeadLetterCopyBeforeAckBatchOfOneTest extends HaltAfterDeadLetterCopyBeforeAckTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
