package io.legacygateway.inbox;

/** {@link PostgresInboxDatabaseOutageUsesNoDeliveryAttemptTest} with one message per transaction ({@code batchSize=1}); the parent runs the default batch. */
class PostgresInboxDatabaseOutageUsesNoDeliveryAttemptBatchOfOneTest extends PostgresInboxDatabaseOutageUsesNoDeliveryAttemptTest {

    @Override
    protected String batchSize() {
        return "1";
    }
}
