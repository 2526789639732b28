package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.adapters.outbox.attempts.MarkState;
import io.legacygateway.adapters.outbox.attempts.Observation;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.MalformedEnvelopeException;
import io.legacygateway.reconciliation.IntentEvidence;
import io.legacygateway.reconciliation.Reconciliation;
import io.legacygateway.reconciliation.ReconciliationDecision;
import io.legacygateway.testsupport.DbTimes;
import io.legacygateway.testsupport.QueueProbe;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.TextMessage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * Failure window: the relay publishes rows whose event id comes from the row key ({@code billing-{key}}, as the demo
 * billing relay does), then the table is truncated and its keys start again. The new rows get the ids of the old
 * ones, with other content. Before, the broker dropped them as duplicates of the old events ({@code _AMQ_DUPL_ID} was
 * the event id) and the relay marked them published: lost. Now the duplicate id includes a digest of the envelope,
 * so the broker takes them; a resend of the same event is still dropped
 * ({@link CrashAfterPublishBeforeMarkTest}). Rows reloaded with the very same content are one event to the broker:
 * the relay, which has no record of sending them, counts, logs and records them for the reconciliation.
 *
 * <p>Subclasses restart the keys the way their database does ({@code TRUNCATE ... RESTART IDENTITY} on PostgreSQL,
 * {@code TRUNCATE}, which resets {@code AUTO_INCREMENT}, on MariaDB).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class ReusedEventIdIsNotDroppedTest extends RelayTestSupport {

    private final EnvelopeCodec codec = new EnvelopeCodec();

    @Autowired
    MeterRegistry meters;
    @Autowired
    Reconciliation reconciliation;

    /** Empties the outbox so that the next row gets key 1 again. */
    protected abstract void truncateRestartingKeys();

    @Test
    void newRowsWithTheIdsOfPublishedOnesAfterTheKeysStartAgainAllReachTheQueue() throws Exception {
        String queue = unique("it.reused");
        OutboxRelay relay;
        ListAppender<ILoggingEvent> startup = capture(OutboxRelayFactory.class);
        try {
            relay = relay(unique("reused"), "queue:" + queue, Map.of("eventIdColumn", "none",
                    "eventId", "billing-{key}"));
        } finally {
            release(OutboxRelayFactory.class, startup);
        }
        truncateRestartingKeys();
        insertGeneration(1);
        assertThat(drain(relay)).isEqualTo(50);
        truncateRestartingKeys();
        insertGeneration(2);
        assertThat(drain(relay)).isEqualTo(50);

        List<TextMessage> onQueue = broker.drain(queue);
        assertThat(onQueue).as("every event of both generations, exactly").hasSize(100);
        List<String> ids = IntStream.rangeClosed(1, 50).mapToObj(k -> "billing-" + k).toList();
        assertThat(onQueue.subList(0, 50)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .containsExactlyElementsOf(ids);
        assertThat(onQueue.subList(50, 100)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .as("the same ids again").containsExactlyElementsOf(ids);
        assertThat(onQueue.subList(0, 50)).extracting(m -> data(m).get("generation").asInt()).containsOnly(1);
        assertThat(onQueue.subList(50, 100)).extracting(m -> data(m).get("generation").asInt()).containsOnly(2);
        assertThat(rows.count("PUBLISHED")).isEqualTo(50);
        assertThat(startup.list).filteredOn(e -> e.getLevel() == Level.WARN).as("warned once at startup")
                .singleElement().satisfies(e -> assertThat(e.getFormattedMessage())
                        .contains("outbox-relay '" + relay.name() + "' parameter 'eventId'", "billing-{key}",
                                "row key alone", "sequence reset"));
    }

    @Test
    void anIdenticalRowReloadedAfterTheKeysStartAgainIsOneEventToTheBrokerCountedAndReportedAsUnexplained() {
        String queue = unique("it.reloaded");
        OutboxRelay relay = relay(unique("reloaded"), "queue:" + queue, Map.of("eventIdColumn", "none",
                "eventId", "billing-{key}"));
        Instant occurred = Instant.parse("2026-11-30T08:00:00.123456Z");
        truncateRestartingKeys();
        insertIdentical(occurred);
        assertThat(drain(relay)).isEqualTo(3);
        truncateRestartingKeys();
        insertIdentical(occurred); // a restored backup: the very same events again

        ListAppender<ILoggingEvent> warnings = capture(DuplicateIds.class);
        try {
            assertThat(drain(relay)).as("the broker holds them: marked published").isEqualTo(3);
        } finally {
            release(DuplicateIds.class, warnings);
        }
        assertThat(broker.drain(queue)).as("same id, same content: one event to the broker").hasSize(3);
        assertThat(rows.count("PUBLISHED")).isEqualTo(3);
        assertThat(meters.counter("gateway.outbox.duplicate.ids", "relay", relay.name()).count()).isEqualTo(3.0);
        assertThat(warnings.list).filteredOn(e -> e.getLevel() == Level.WARN).hasSize(3)
                .allSatisfy(e -> assertThat(e.getFormattedMessage()).contains("no record of sending it"))
                .anySatisfy(e -> assertThat(e.getFormattedMessage()).contains("event billing-1 ", "|sha256:"));

        Reconciliation.Report report = reconciliation.report(relay.name(), false, null);
        assertThat(report.counts()).containsEntry(ReconciliationDecision.UNEXPLAINED_BROKER_DUPLICATE, 3);
        assertThat(report.intents()).extracting(IntentEvidence::intentId)
                .containsExactlyInAnyOrder("billing-1", "billing-2", "billing-3");
        assertThat(report.intents()).allSatisfy(e -> {
            assertThat(e.reconciliationDecision()).isEqualTo(ReconciliationDecision.UNEXPLAINED_BROKER_DUPLICATE);
            assertThat(e.attempts()).extracting(AttemptLog.Entry::observation)
                    .containsExactly(Observation.CONFIRMED, Observation.DUPLICATE);
            assertThat(e.attempts()).extracting(AttemptLog.Entry::markState)
                    .containsExactly(MarkState.PUBLISHED, MarkState.PUBLISHED);
        });

        rows.jdbc().update("UPDATE outbox SET status = 'PENDING'"); // an operator resets them: not counted twice
        assertThat(drain(relay)).isEqualTo(3);
        assertThat(meters.counter("gateway.outbox.duplicate.ids", "relay", relay.name()).count()).isEqualTo(3.0);
        assertThat(broker.count(queue)).isZero();
    }

    @Test
    void withoutAnAttemptLogTheRelayHasNoRecordOfSendingAndCountsEveryBrokerDuplicate() {
        String queue = unique("it.nolog");
        OutboxRelay relay = relay(unique("nolog"), "queue:" + queue, Map.of("eventIdColumn", "none",
                "eventId", "billing-{key}", "attemptLog", "false"));
        Instant occurred = Instant.parse("2026-11-30T09:00:00Z");
        truncateRestartingKeys();
        insertIdentical(occurred);
        faults.crashOnceAfterPublish(relay.name());
        assertThat(drain(relay)).isZero();

        ListAppender<ILoggingEvent> warnings = capture(DuplicateIds.class);
        try {
            assertThat(drain(relay)).isEqualTo(3);
        } finally {
            release(DuplicateIds.class, warnings);
        }
        assertThat(broker.drain(queue)).as("each event once").hasSize(3);
        assertThat(meters.counter("gateway.outbox.duplicate.ids", "relay", relay.name()).count()).isEqualTo(3.0);
        assertThat(warnings.list).hasSize(3)
                .allSatisfy(e -> assertThat(e.getFormattedMessage()).contains("attemptLog is off"));
    }

    private void insertIdentical(Instant occurred) {
        for (int i = 1; i <= 3; i++) {
            rows.jdbc().update("INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, event_version,"
                    + " payload, occurred_at) VALUES (?, 'Invoice', ?, 'InvoiceIssued', 1, ?, ?)",
                    UUID.randomUUID().toString(), "invoice-" + i, "{\"n\":" + i + "}",
                    DbTimes.bind(rows.jdbc(), occurred));
        }
    }

    private void insertGeneration(int generation) {
        for (int i = 0; i < 50; i++) {
            rows.insert("invoice-" + (i % 7), "InvoiceIssued", "{\"generation\":" + generation + ",\"n\":" + i + "}");
        }
    }

    private JsonNode data(TextMessage m) {
        try {
            return codec.read(QueueProbe.text(m)).data();
        } catch (MalformedEnvelopeException e) {
            throw new IllegalStateException(e);
        }
    }

    static ListAppender<ILoggingEvent> capture(Class<?> source) {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        ((Logger) LoggerFactory.getLogger(source)).addAppender(appender);
        return appender;
    }

    static void release(Class<?> source, ListAppender<ILoggingEvent> appender) {
        ((Logger) LoggerFactory.getLogger(source)).detachAppender(appender);
        appender.stop();
    }
}
