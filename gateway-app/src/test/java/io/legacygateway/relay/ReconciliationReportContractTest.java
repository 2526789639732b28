package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.adapters.outbox.attempts.MarkState;
import io.legacygateway.adapters.outbox.attempts.Observation;
import io.legacygateway.reconciliation.IntentEvidence;
import io.legacygateway.reconciliation.Reconciliation;
import io.legacygateway.reconciliation.ReconciliationDecision;
import io.legacygateway.testsupport.DbTimes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The reconciliation report derived from real facts: attempts a relay recorded against a real database (and H2, whose
 * unquoted names are stored in upper case) and the embedded
 * broker, the outbox, and a domain table. Each decision of Durable Outbox Reconciliation Record v1 is produced by the
 * situation it names, and the report never changes a row.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class ReconciliationReportContractTest extends RelayTestSupport {

    @Autowired
    Reconciliation reconciliation;

    @Test
    void crashAfterPublishBeforeMarkIsReportedAsDuplicateDeliveryCandidateFromTheAttemptLog() {
        String name = unique("rec-dup");
        String id = rows.insert("order-1", "OrderConfirmed", "{\"n\":1}");
        OutboxRelay relay = relay(name, "queue:" + unique("it.rec"), Map.of());
        faults.crashOnceAfterPublish(name);
        assertThat(drain(relay)).isZero();
        assertThat(drain(relay)).isEqualTo(1);

        Reconciliation.Report report = reconciliation.report(name, false, null);
        assertThat(report.intents()).hasSize(1);
        IntentEvidence e = report.intents().get(0);
        assertThat(e.reconciliationDecision()).isEqualTo(ReconciliationDecision.DUPLICATE_DELIVERY_CANDIDATE);
        assertThat(e.intentId()).isEqualTo(id);
        assertThat(e.aggregateKey()).isEqualTo("Order:order-1");
        assertThat(e.attempts()).extracting(AttemptLog.Entry::observation)
                .containsExactly(Observation.CONFIRMED, Observation.CONFIRMED);
        assertThat(e.attempts()).extracting(AttemptLog.Entry::markState)
                .containsExactly(MarkState.ROLLED_BACK, MarkState.PUBLISHED);
        assertThat(e.markState()).isEqualTo("PUBLISHED");
        assertThat(e.residualConsumerRisk()).contains(id, "2 times");
        assertThat(report.counts()).containsEntry(ReconciliationDecision.DUPLICATE_DELIVERY_CANDIDATE, 1);
        assertThat(report.findings()).isTrue();
    }

    @Test
    void pendingIntentOlderThanTheThresholdIsStuckAndStaysPending() {
        String name = unique("rec-old");
        String id = rows.insert("order-2", "OrderConfirmed", "{\"n\":2}");
        rows.jdbc().update("UPDATE outbox SET created_at = ? WHERE id = ?",
                DbTimes.bind(rows.jdbc(), Instant.now().minus(Duration.ofHours(1))), id);
        relay(name, "queue:" + unique("it.rec"), Map.of()); // never drained: the relay is stopped, say

        Reconciliation.Report report = reconciliation.report(name, false, null);
        assertThat(report.intents()).singleElement().satisfies(e -> {
            assertThat(e.reconciliationDecision()).isEqualTo(ReconciliationDecision.STUCK_INTENT_DETECTED);
            assertThat(e.relayAttempt()).isEqualTo("0: not attempted yet");
            assertThat(e.age()).startsWith("1h");
        });
        assertThat(rows.status(id)).as("never declared successful by the report").isEqualTo("PENDING");
    }

    @Test
    void intentWithRepeatedFailedAttemptsIsStuckAndAParkedOneToo() {
        String name = unique("rec-fail");
        String retrying = rows.insert("order-3", "OrderConfirmed", "{not json");
        OutboxRelay relay = relay(name, "queue:" + unique("it.rec"), Map.of("maxAttempts", "2", "retryBackoff", "1ms",
                "maxRetryBackoff", "1ms"));
        drain(relay);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            drain(relay);
            return "FAILED".equals(rows.status(retrying));
        });

        IntentEvidence e = reconciliation.report(name, false, null).intents().get(0);
        assertThat(e.reconciliationDecision()).isEqualTo(ReconciliationDecision.STUCK_INTENT_DETECTED);
        assertThat(e.markState()).startsWith("FAILED (parked) after 2 attempt(s)").contains("not valid JSON");
        assertThat(e.attempts()).extracting(AttemptLog.Entry::observation)
                .containsExactly(Observation.NOT_SENT, Observation.NOT_SENT);
        assertThat(e.attempts()).extracting(AttemptLog.Entry::markState)
                .containsExactly(MarkState.RETRY, MarkState.FAILED);
    }

    @Test
    void freshAndOncePublishedIntentsAreCommittedCountedAndListedOnlyOnRequest() {
        String name = unique("rec-ok");
        List<String> published = List.of(rows.insert("order-4", "OrderConfirmed", "{\"n\":4}"),
                rows.insert("order-5", "OrderConfirmed", "{\"n\":5}"));
        OutboxRelay relay = relay(name, "queue:" + unique("it.rec"), Map.of());
        assertThat(drain(relay)).isEqualTo(2);
        String waiting = rows.insert("order-6", "OrderConfirmed", "{\"n\":6}");

        Reconciliation.Report findings = reconciliation.report(name, false, null);
        assertThat(findings.intents()).isEmpty();
        assertThat(findings.findings()).isFalse();
        assertThat(findings.notes()).anyMatch(n -> n.contains("means only that this query")
                && n.contains("proves nothing about what consumers received"));

        Reconciliation.Report all = reconciliation.report(name, true, null);
        assertThat(all.intents()).extracting(IntentEvidence::intentId)
                .containsExactlyInAnyOrder(published.get(0), published.get(1), waiting);
        assertThat(all.intents()).allSatisfy(e -> {
            assertThat(e.reconciliationDecision()).isEqualTo(ReconciliationDecision.DOMAIN_AND_INTENT_COMMITTED);
            assertThat(e.missing()).isEmpty();
            assertThat(List.of(e.intentId(), e.aggregateKey(), e.domainCommit(), e.outboxCommit(), e.relayAttempt(),
                    e.publishObservation(), e.markState(), e.age(), e.residualConsumerRisk())).doesNotContainNull();
        });
        assertThat(all.counts()).containsEntry(ReconciliationDecision.DOMAIN_AND_INTENT_COMMITTED, 3);
    }

    @Test
    void rowAStepDroppedIsReportedAsNotPublishedOnPurpose() {
        String name = unique("rec-filtered");
        String kept = rows.insert("order-7", "OrderConfirmed", "{\"n\":7}");
        String dropped = rows.insert("order-7", "OrderAudited", "{\"n\":8}");
        OutboxRelay relay = relay(name, "queue:" + unique("it.rec"), Map.of(
                "filter", "simple:${header.ce_type} != 'OrderAudited'", "filterReason", "audit-only"));
        assertThat(drain(relay)).isEqualTo(1);

        Reconciliation.Report all = reconciliation.report(name, true, null);
        IntentEvidence e = all.intents().stream().filter(i -> i.intentId().equals(dropped)).findFirst().orElseThrow();
        assertThat(e.reconciliationDecision()).isEqualTo(ReconciliationDecision.DOMAIN_AND_INTENT_COMMITTED);
        assertThat(e.missing()).isEmpty();
        assertThat(e.publishObservation()).contains("FILTERED").contains("audit-only");
        assertThat(e.markState()).isEqualTo("PUBLISHED");
        assertThat(e.residualConsumerRisk()).startsWith("Not published, on purpose").contains("audit-only");
        assertThat(all.intents()).extracting(IntentEvidence::intentId).contains(kept);
    }

    @Test
    void domainRowWithoutAnIntentIsADualWriteGap() {
        String name = unique("rec-gap");
        rows.jdbc().execute("DROP TABLE IF EXISTS rec_orders");
        rows.jdbc().execute("CREATE TABLE rec_orders (id INTEGER PRIMARY KEY, status VARCHAR(16))");
        rows.jdbc().update("INSERT INTO rec_orders (id, status) VALUES (1, 'NEW'), (2, 'NEW')");
        String intent = rows.insert("1", "OrderConfirmed", "{\"n\":1}"); // order 2 was committed without one
        relay(name, "queue:" + unique("it.rec"), Map.of("domainTable", "rec_orders", "domainAggregateType", "Order"));

        Reconciliation.Report report = reconciliation.report(name, true, null);
        assertThat(report.intents()).filteredOn(e -> e.reconciliationDecision()
                == ReconciliationDecision.DUAL_WRITE_GAP_OBSERVED).singleElement().satisfies(e -> {
                    assertThat(e.aggregateKey()).isEqualTo("Order:2");
                    assertThat(e.outboxCommit()).startsWith("MISSING");
                    assertThat(e.domainCommit()).startsWith("COMMITTED");
                });
        assertThat(report.intents()).filteredOn(e -> intent.equals(e.intentId())).singleElement()
                .satisfies(e -> assertThat(e.domainCommit()).startsWith("COMMITTED: the row is in")
                        .containsIgnoringCase("rec_orders"));
    }

    @Test
    void withAttemptLogOffNothingIsRecordedAndTheReportSaysWhatItCannotTell() {
        String name = unique("rec-off");
        rows.insert("order-7", "OrderConfirmed", "{\"n\":7}");
        OutboxRelay relay = relay(name, "queue:" + unique("it.rec"), Map.of("attemptLog", "false"));
        assertThat(drain(relay)).isEqualTo(1);
        assertThat(rows.attemptsOfRelay(name)).isZero();
        assertThat(reconciliation.report(name, true, null).notes())
                .anyMatch(n -> n.contains("attemptLog is off, so duplicate deliveries cannot be told"));
    }
}
