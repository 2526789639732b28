package io.legacygateway.reconciliation;

import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import java.util.List;

/**
 * The evidence record of one intent: the ten fields of Durable Outbox Reconciliation Record v1 ({@code intentId} to
 * {@code residualConsumerRisk}), then where it was found and the facts it was derived from. A field that cannot be
 * established is {@code null} and named in {@code missing}; the decision is then {@code EVIDENCE_INCOMPLETE} (unless the
 * intent is stuck or missing altogether, which is the more urgent finding).
 *
 * @param rowKey   the outbox row's key as text ({@code null} for a dual-write gap)
 * @param attempts the relay's recorded attempts at the row, oldest first
 * @param missing  the fields that could not be established, each with the reason
 */
public record IntentEvidence(String intentId, String aggregateKey, String domainCommit, String outboxCommit,
                             String relayAttempt, String publishObservation, String markState, String age,
                             ReconciliationDecision reconciliationDecision, String residualConsumerRisk,
                             String relay, String rowKey, List<AttemptLog.Entry> attempts, List<String> missing) {

    /** The ten fields as an operator reads them, one per line. */
    public String render() {
        return String.join("\n",
                "Intent ID:               " + text(intentId),
                "Aggregate Key:           " + text(aggregateKey),
                "Domain Commit:           " + text(domainCommit),
                "Outbox Commit:           " + text(outboxCommit),
                "Relay Attempt:           " + text(relayAttempt),
                "Publish Observation:     " + text(publishObservation),
                "Mark State:              " + text(markState),
                "Age:                     " + text(age),
                "Reconciliation Decision: " + reconciliationDecision,
                "Residual Consumer Risk:  " + text(residualConsumerRisk))
                + (missing.isEmpty() ? "" : "\nMissing:                 " + String.join("; ", missing));
    }

    private static String text(String value) {
        return value == null ? "(missing)" : value;
    }
}
