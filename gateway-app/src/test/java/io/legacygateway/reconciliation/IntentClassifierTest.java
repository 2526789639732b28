package io.legacygateway.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.adapters.outbox.attempts.MarkState;
import io.legacygateway.adapters.outbox.attempts.Observation;
import io.legacygateway.reconciliation.IntentFacts.DomainState;
import io.legacygateway.reconciliation.IntentFacts.OutboxState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The decision rules, one fact pattern each; the report and the lab tests show them on real databases. */
class IntentClassifierTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private final IntentClassifier classifier = new IntentClassifier(Duration.ofMinutes(15), 3);

    private static AttemptLog.Entry attempt(Observation o, MarkState m) {
        return new AttemptLog.Entry("7", "evt-7", "Order:O-7", NOW.minusSeconds(60), "relay@host:1", o, m, null, "c");
    }

    private static IntentFacts facts(OutboxState state, Instant created, int onRow, List<AttemptLog.Entry> attempts) {
        return new IntentFacts("orders", "7", "evt-7", "Order:O-7", DomainState.NOT_CHECKED, null, state, created,
                onRow, null, true, attempts);
    }

    private ReconciliationDecision decide(IntentFacts f) {
        return classifier.classify(f, NOW).reconciliationDecision();
    }

    @Test
    void publishedOnceIsCommitted() {
        assertThat(decide(facts(OutboxState.PUBLISHED, null, 0,
                List.of(attempt(Observation.CONFIRMED, MarkState.PUBLISHED)))))
                .isEqualTo(ReconciliationDecision.DOMAIN_AND_INTENT_COMMITTED);
    }

    @Test
    void aConfirmedAttemptWithoutMarkThenAnotherIsADuplicateCandidateButRefusalsAreNot() {
        assertThat(decide(facts(OutboxState.PUBLISHED, null, 0, List.of(attempt(Observation.CONFIRMED,
                MarkState.NONE), attempt(Observation.CONFIRMED, MarkState.PUBLISHED)))))
                .isEqualTo(ReconciliationDecision.DUPLICATE_DELIVERY_CANDIDATE);
        assertThat(decide(facts(OutboxState.PUBLISHED, null, 0, List.of(attempt(Observation.SENT,
                MarkState.NONE), attempt(Observation.CONFIRMED, MarkState.PUBLISHED)))))
                .as("an unanswered send may have been delivered")
                .isEqualTo(ReconciliationDecision.DUPLICATE_DELIVERY_CANDIDATE);
        assertThat(decide(facts(OutboxState.PUBLISHED, null, 0, List.of(attempt(Observation.REFUSED,
                MarkState.RETRY), attempt(Observation.FAILED, MarkState.ROLLED_BACK),
                attempt(Observation.CONFIRMED, MarkState.PUBLISHED)))))
                .isEqualTo(ReconciliationDecision.DOMAIN_AND_INTENT_COMMITTED);
    }

    @Test
    void aBrokerDuplicateTheRelayHasNoRecordOfSendingIsItsOwnDecisionAndNotADeliveryOrCommitted() {
        IntentEvidence e = classifier.classify(facts(OutboxState.PUBLISHED, NOW, 0,
                List.of(attempt(Observation.DUPLICATE, MarkState.PUBLISHED))), NOW);
        assertThat(e.reconciliationDecision()).isEqualTo(ReconciliationDecision.UNEXPLAINED_BROKER_DUPLICATE);
        assertThat(e.residualConsumerRisk()).contains("evt-7").contains("no record of sending it");
        assertThat(e.publishObservation()).contains("DUPLICATE (the broker already held it) x1")
                .doesNotContain("went to the broker");
        assertThat(e.missing()).isEmpty();
        assertThat(decide(facts(OutboxState.PUBLISHED, NOW, 0, List.of(attempt(Observation.CONFIRMED,
                MarkState.PUBLISHED), attempt(Observation.DUPLICATE, MarkState.PUBLISHED)))))
                .as("a row published before and then again, identical, from a reloaded table")
                .isEqualTo(ReconciliationDecision.UNEXPLAINED_BROKER_DUPLICATE);
        assertThat(decide(facts(OutboxState.PENDING, NOW, 0, List.of(attempt(Observation.DUPLICATE,
                MarkState.ROLLED_BACK)))))
                .as("also while the cycle that saw it rolled back and the row waits")
                .isEqualTo(ReconciliationDecision.UNEXPLAINED_BROKER_DUPLICATE);
        assertThat(decide(facts(OutboxState.FAILED, NOW, 1, List.of(attempt(Observation.DUPLICATE,
                MarkState.ROLLED_BACK)))))
                .as("a parked row needs an operator first")
                .isEqualTo(ReconciliationDecision.STUCK_INTENT_DETECTED);
    }

    @Test
    void waitingBeyondAgeOrAttemptsOrParkedIsStuck() {
        assertThat(decide(facts(OutboxState.PENDING, NOW.minus(Duration.ofMinutes(15)), 0, List.of())))
                .isEqualTo(ReconciliationDecision.STUCK_INTENT_DETECTED);
        assertThat(decide(facts(OutboxState.RETRYING, NOW.minusSeconds(5), 3, List.of())))
                .isEqualTo(ReconciliationDecision.STUCK_INTENT_DETECTED);
        assertThat(decide(facts(OutboxState.FAILED, NOW.minusSeconds(5), 1, List.of())))
                .isEqualTo(ReconciliationDecision.STUCK_INTENT_DETECTED);
        assertThat(decide(facts(OutboxState.RETRYING, NOW.minusSeconds(5), 2, List.of())))
                .isEqualTo(ReconciliationDecision.DOMAIN_AND_INTENT_COMMITTED);
    }

    @Test
    void publishedWithoutAnyRecordedAttemptLacksTheResidualRiskAndIsIncomplete() {
        IntentEvidence e = classifier.classify(facts(OutboxState.PUBLISHED, NOW, 0, List.of()), NOW);
        assertThat(e.reconciliationDecision()).isEqualTo(ReconciliationDecision.EVIDENCE_INCOMPLETE);
        assertThat(e.residualConsumerRisk()).isNull();
        assertThat(e.missing()).anyMatch(m -> m.startsWith("relay attempt"));
        assertThat(e.render()).contains("Residual Consumer Risk:  (missing)");
    }

    @Test
    void aDomainRowWithoutIntentIsAGap() {
        IntentEvidence e = classifier.classify(new IntentFacts("orders", null, null, "Order:O-9",
                DomainState.COMMITTED, "orders", OutboxState.MISSING, null, 0, null, true, List.of()), NOW);
        assertThat(e.reconciliationDecision()).isEqualTo(ReconciliationDecision.DUAL_WRITE_GAP_OBSERVED);
        assertThat(e.residualConsumerRisk()).contains("never learn");
    }
}
