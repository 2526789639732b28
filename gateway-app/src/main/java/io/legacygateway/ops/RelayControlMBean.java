package io.legacygateway.ops;

/**
 * JMX view of one relay, {@code io.legacygateway:type=Relay,name=<relay>} (Hawtio's JMX tab, Jolokia). Operations
 * return JSON, as the REST API does; retries are audited with the JMX caller (the Jolokia login) as actor.
 */
public interface RelayControlMBean {

    String getName();

    String getMarkMode();

    int getMaxAttempts();

    String getFailedRowPolicy();

    /** Rows waiting to be published at the last sample; -1 before the first. */
    long getPending();

    /** Rows parked as FAILED at the last sample; -1 before the first. */
    long getFailed();

    /**
     * FAILED rows matching a filter (empty arguments match everything), in outbox order.
     *
     * @param from ISO-8601 instant, inclusive, on the event time
     * @param to   ISO-8601 instant, exclusive
     */
    String listFailed(String eventType, String aggregateId, String from, String to, String reason, int limit);

    /** Retries FAILED rows by key (comma-separated, as listed). */
    String retryFailed(String ids, boolean dryRun);

    /** Retries the FAILED rows matching a filter (at least one criterion). */
    String retryFailedMatching(String eventType, String aggregateId, String from, String to, String reason,
                               boolean dryRun);
}
