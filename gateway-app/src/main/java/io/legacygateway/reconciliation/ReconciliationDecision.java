package io.legacygateway.reconciliation;

/**
 * What the reconciliation concludes about one intent (Durable Outbox Reconciliation Record v1). No decision says that
 * consumers applied an event: the report sees the local store and the relay's attempts, not the consumers.
 */
public enum ReconciliationDecision {
    /** The domain change and its intent are committed together; delivered once or not yet due for concern. */
    DOMAIN_AND_INTENT_COMMITTED,
    /**
     * The broker dropped the event as a duplicate of one it already held with the same id and the same content, and
     * the relay has no record of sending it before (attempt observed {@code DUPLICATE}). The row is marked published,
     * but what consumers got is that earlier message, which need not come from this row: a restored or reloaded outbox
     * with identical rows, another relay or table producing the same event, or attempts pruned from the log.
     */
    UNEXPLAINED_BROKER_DUPLICATE,
    /** The event may have reached the broker more than once: more than one attempt that was confirmed or unanswered. */
    DUPLICATE_DELIVERY_CANDIDATE,
    /** Waiting beyond the age or attempt threshold, or parked as FAILED. Never declared successful automatically. */
    STUCK_INTENT_DETECTED,
    /** A field the record needs cannot be established from the facts at hand (for example the residual consumer risk). */
    EVIDENCE_INCOMPLETE,
    /** A domain row committed without its intent: the dual-write gap (only where the domain table is known). */
    DUAL_WRITE_GAP_OBSERVED
}
