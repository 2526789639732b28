package io.legacygateway.ops;

import org.springframework.jmx.export.annotation.ManagedAttribute;
import org.springframework.jmx.export.annotation.ManagedOperation;
import org.springframework.jmx.export.annotation.ManagedOperationParameter;
import org.springframework.jmx.export.annotation.ManagedOperationParameters;

/**
 * JMX view of one relay, {@code io.legacygateway:type=Relay,name=<relay>} (Hawtio's JMX tab, Jolokia). Operations
 * return JSON, as the REST API does; retries are audited with the JMX caller (the Jolokia login) as actor.
 */
public interface RelayControlMBean {

    @ManagedAttribute(description = "The relay's name (parameter relay)")
    String getName();

    @ManagedAttribute(description = "How published rows are marked: STATUS, TIMESTAMP, DELETE or ZERO_WRITE")
    String getMarkMode();

    @ManagedAttribute(description = "Attempts per row before it is parked as FAILED (parameter maxAttempts)")
    int getMaxAttempts();

    @ManagedAttribute(description = "What a FAILED row does to the later rows of its aggregate (parameter"
            + " failedRowPolicy)")
    String getFailedRowPolicy();

    /** Rows waiting to be published at the last sample; -1 before the first. */
    @ManagedAttribute(description = "Rows waiting to be published at the last sample; -1 before the first")
    long getPending();

    /** Rows parked as FAILED at the last sample; -1 before the first. */
    @ManagedAttribute(description = "Rows parked as FAILED at the last sample; -1 before the first")
    long getFailed();

    /**
     * FAILED rows matching a filter (empty arguments match everything), in outbox order.
     *
     * @param from ISO-8601 instant, inclusive, on the event time
     * @param to   ISO-8601 instant, exclusive
     */
    @ManagedOperation(description = "FAILED rows matching a filter, in outbox order, as JSON (empty arguments match"
            + " everything)")
    @ManagedOperationParameters({
            @ManagedOperationParameter(name = "eventType", description = "event type, exact; empty: any"),
            @ManagedOperationParameter(name = "aggregateId", description = "aggregate id, exact; empty: any"),
            @ManagedOperationParameter(name = "from", description = "ISO-8601 instant, inclusive, on the event time;"
                    + " empty: no lower bound"),
            @ManagedOperationParameter(name = "to", description = "ISO-8601 instant, exclusive; empty: no upper"
                    + " bound"),
            @ManagedOperationParameter(name = "reason", description = "text the failure reason contains; empty: any"),
            @ManagedOperationParameter(name = "limit", description = "rows at most")})
    String listFailed(String eventType, String aggregateId, String from, String to, String reason, int limit);

    /** Retries FAILED rows by key (comma-separated, as listed). */
    @ManagedOperation(description = "Retry FAILED rows by key (audited, the JMX login as actor); JSON result")
    @ManagedOperationParameters({
            @ManagedOperationParameter(name = "ids", description = "row keys, comma-separated, as listFailed lists"
                    + " them"),
            @ManagedOperationParameter(name = "dryRun", description = "true: report only, change nothing")})
    String retryFailed(String ids, boolean dryRun);

    /** Retries the FAILED rows matching a filter (at least one criterion). */
    @ManagedOperation(description = "Retry the FAILED rows matching a filter, at least one criterion (audited);"
            + " JSON result")
    @ManagedOperationParameters({
            @ManagedOperationParameter(name = "eventType", description = "event type, exact; empty: any"),
            @ManagedOperationParameter(name = "aggregateId", description = "aggregate id, exact; empty: any"),
            @ManagedOperationParameter(name = "from", description = "ISO-8601 instant, inclusive, on the event time;"
                    + " empty: no lower bound"),
            @ManagedOperationParameter(name = "to", description = "ISO-8601 instant, exclusive; empty: no upper"
                    + " bound"),
            @ManagedOperationParameter(name = "reason", description = "text the failure reason contains; empty: any"),
            @ManagedOperationParameter(name = "dryRun", description = "true: report only, change nothing")})
    String retryFailedMatching(String eventType, String aggregateId, String from, String to, String reason,
                               boolean dryRun);
}
