package io.legacygateway.inbox;

/** {@link MariaDbInboxDatabaseOutageUsesNoDeliveryAttemptTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class MariaDbInboxDatabaseOutageUsesNoDeliveryAttemptBatchOfOneTest extends MariaDbInboxDatabaseOutageUsesNoDeliveryAttemptTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
