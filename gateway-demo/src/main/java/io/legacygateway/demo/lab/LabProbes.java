package io.legacygateway.demo.lab;

import static io.legacygateway.demo.lab.ReconciliationLab.ORDERS;
import static io.legacygateway.demo.lab.ReconciliationLab.OUTBOX;

import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.demo.lab.ReconciliationLab.ProbeResult;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.reconciliation.IntentEvidence;
import io.legacygateway.reconciliation.Reconciliation;
import io.legacygateway.reconciliation.ReconciliationDecision;
import io.legacygateway.relay.OutboxRelay;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The four probes of the reconciliation lab ({@link ReconciliationLab} prepares their tables, relay and queue). Each
 * changes the lab's rows or the broker as its name says, records what it observed, and asks the reconciliation for
 * the evidence of its intent.
 */
final class LabProbes {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final Dialect dialect;
    private final OutboxRelay relay;
    private final String queue;
    private final AtomicBoolean crash;
    private final Reconciliation reconciliation;
    private final ConnectionFactory connectionFactory;
    private final Clock clock;

    /** @param crash set it to make the relay die after the broker's confirmation and before its mark commits */
    LabProbes(JdbcTemplate jdbc, TransactionTemplate tx, Dialect dialect, OutboxRelay relay, String queue,
              AtomicBoolean crash, Reconciliation reconciliation, ConnectionFactory connectionFactory, Clock clock) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.dialect = dialect;
        this.relay = relay;
        this.queue = queue;
        this.crash = crash;
        this.reconciliation = reconciliation;
        this.connectionFactory = connectionFactory;
        this.clock = clock;
    }

    ProbeResult baseline() throws JMSException {
        List<String> seen = new ArrayList<>();
        String id = "evt-order-O-1001-confirmed";
        tx.executeWithoutResult(s -> confirm("O-1001", id, "{\"orderId\":\"O-1001\"}", clock.instant()));
        seen.add("order O-1001 and intent " + id + " committed in one local transaction");
        String problem = null;
        try {
            tx.executeWithoutResult(s -> {
                confirm("O-1002", "evt-order-O-1002-confirmed", "{\"orderId\":\"O-1002\"}", clock.instant());
                throw new IllegalStateException("lab: the application fails before its commit");
            });
        } catch (IllegalStateException expected) {
            // the failure before commit
        }
        int orders = count("SELECT COUNT(*) FROM " + ORDERS + " WHERE id = ?", "O-1002");
        int intents = count("SELECT COUNT(*) FROM " + OUTBOX + " WHERE aggregate_id = ?", "O-1002");
        seen.add("a failure before commit of order O-1002 left " + orders + " order row(s) and " + intents
                + " intent row(s)");
        if (orders + intents != 0) {
            problem = "the failed transaction left rows behind: local atomicity does not hold";
        }
        int published = relay.drain(() -> false);
        seen.add("the relay published " + published + " event(s); on the queue: " + received());
        return result("baseline_transactional_outbox_commit", ReconciliationDecision.DOMAIN_AND_INTENT_COMMITTED,
                id, seen, problem);
    }

    ProbeResult dualWrite() throws JMSException {
        List<String> seen = new ArrayList<>();
        jdbc.update("INSERT INTO " + ORDERS + " (id, status, created_at) VALUES (?, ?, ?)", "O-2001", "CONFIRMED",
                time(clock.instant()));
        seen.add("order O-2001 committed on its own, without an intent (the broken design, on purpose)");
        String failure = publishDirectlyAndFail("evt-order-O-2001-confirmed");
        seen.add("the direct publish failed: " + failure + "; on the queue: " + received());
        seen.add("intent rows for O-2001: " + count("SELECT COUNT(*) FROM " + OUTBOX + " WHERE aggregate_id = ?",
                "O-2001") + " (nothing durable says the event is owed; this evidence stays after the repair)");
        Reconciliation.Report report = reconciliation.report(relay.name(), false, null);
        IntentEvidence gap = report.intents().stream()
                .filter(e -> "Order:O-2001".equals(e.aggregateKey())).findFirst().orElse(null);
        return new ProbeResult("direct_dual_write_publish_failure", ReconciliationDecision.DUAL_WRITE_GAP_OBSERVED,
                gap == null ? null : gap.reconciliationDecision(), gap, seen,
                gap == null ? "the reconciliation did not report order O-2001" : null);
    }

    ProbeResult crashBeforeMark() throws JMSException {
        List<String> seen = new ArrayList<>();
        String id = "evt-order-O-3001-confirmed";
        tx.executeWithoutResult(s -> confirm("O-3001", id, "{\"orderId\":\"O-3001\"}", clock.instant()));
        crash.set(true);
        relay.drain(() -> false);
        seen.add("relay attempt 1: the broker confirmed, then the relay died before the mark; the row is "
                + status(id));
        relay.drain(() -> false);
        seen.add("relay attempt 2 (the still-pending intent ran again): the row is " + status(id));
        Map<String, List<AttemptLog.Entry>> log = relay.attempts().attempts(List.of(keyOf(id)));
        List<String> delivery = log.getOrDefault(keyOf(id), List.of()).stream()
                .map(a -> a.eventId() + " " + a.observation() + "/" + a.markState()).toList();
        seen.add("delivery log (attempt log): " + delivery);
        seen.add("on the queue: " + received() + " (the broker's duplicate-id cache dropped the second copy; a"
                + " consumer behind a broker without that cache entry gets both)");
        return result("relay_publish_before_mark_crash_retry", ReconciliationDecision.DUPLICATE_DELIVERY_CANDIDATE,
                id, seen, null);
    }

    ProbeResult oldPending() {
        List<String> seen = new ArrayList<>();
        String id = "evt-order-O-4001-confirmed";
        Instant twoHoursAgo = clock.instant().minus(Duration.ofHours(2));
        // a payload that is not JSON: each attempt fails (and is charged) until the row is parked
        tx.executeWithoutResult(s -> confirm("O-4001", id, "{not json", twoHoursAgo));
        int attempts = 0;
        for (int i = 0; i < 1000 && attempts < 3; i++) {
            relay.drain(() -> false);
            attempts = count("SELECT retry_count FROM " + OUTBOX + " WHERE id = ?", id);
            if (attempts < 3) {
                pause(); // the row's next attempt is due 1 ms after the last one
            }
        }
        seen.add("intent " + id + " created 2h ago failed " + attempts + " attempt(s); the row is " + status(id));
        ProbeResult r = result("reconciliation_old_pending_intent", ReconciliationDecision.STUCK_INTENT_DETECTED,
                id, seen, null);
        String after = status(id);
        seen.add("after the reconciliation the row is still " + after + " (never declared successful"
                + " automatically)");
        return "PUBLISHED".equals(after) ? new ProbeResult(r.probe(), r.expected(), r.actual(), r.evidence(), seen,
                "the stuck intent was marked published") : r;
    }

    private ProbeResult result(String probe, ReconciliationDecision expected, String id, List<String> seen,
                               String problem) {
        Reconciliation.Report report = reconciliation.report(relay.name(), true, id);
        IntentEvidence e = report.intents().isEmpty() ? null : report.intents().get(0);
        return new ProbeResult(probe, expected, e == null ? null : e.reconciliationDecision(), e, seen,
                problem != null ? problem : e == null ? "the reconciliation did not report intent " + id : null);
    }

    private void confirm(String order, String eventId, String payload, Instant at) {
        jdbc.update("INSERT INTO " + ORDERS + " (id, status, created_at) VALUES (?, ?, ?)", order, "CONFIRMED",
                time(at));
        jdbc.update("INSERT INTO " + OUTBOX + " (id, aggregate_type, aggregate_id, event_type, event_version,"
                        + " payload, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", eventId, "Order", order,
                "OrderConfirmed", 1, payload, "PENDING", time(at));
    }

    /** The broken design: publish on the broker's own transaction, outside any database transaction, and fail. */
    private String publishDirectlyAndFail(String eventId) throws JMSException {
        try (Connection c = connectionFactory.createConnection();
             Session s = c.createSession(true, Session.SESSION_TRANSACTED)) {
            Message m = s.createTextMessage("{\"orderId\":\"O-2001\"}");
            m.setStringProperty(EnvelopeMessages.DUPLICATE_ID, eventId);
            s.createProducer(s.createQueue(queue)).send(m);
            s.rollback(); // the service dies before the broker commit
            return "the service died before the broker commit (the send was rolled back)";
        }
    }

    /** Event ids now on the lab queue, consumed. */
    private List<String> received() throws JMSException {
        List<String> ids = new ArrayList<>();
        try (Connection c = connectionFactory.createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            c.start();
            MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
            Message m;
            while ((m = consumer.receive(ids.isEmpty() ? 2000 : 500)) != null) {
                ids.add(m.getStringProperty(EnvelopeMessages.ID));
            }
        }
        return ids;
    }

    private String keyOf(String eventId) {
        return jdbc.queryForObject("SELECT seq FROM " + OUTBOX + " WHERE id = ?", Long.class, eventId).toString();
    }

    private String status(String eventId) {
        return jdbc.queryForObject("SELECT status FROM " + OUTBOX + " WHERE id = ?", String.class, eventId);
    }

    private int count(String sql, Object arg) {
        Integer n = jdbc.queryForObject(sql, Integer.class, arg);
        return n == null ? 0 : n;
    }

    /** Binds a time as the lab tables store it: MariaDB's DATETIME holds UTC, the others a time with zone. */
    private Object time(Instant at) {
        return dialect == Dialect.MARIADB ? LocalDateTime.ofInstant(at, ZoneOffset.UTC) : at.atOffset(ZoneOffset.UTC);
    }

    private static void pause() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
