package io.legacygateway.reconciliation;

import io.legacygateway.adapters.outbox.AttemptLog;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.relay.RelayCycleHook;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The four probes of Durable Outbox Reconciliation Record v1, run against a configured database and the configured
 * broker with the gateway's own relay, attempt log and reconciliation. Each probe does what its name says, prints what
 * it observed and the evidence record the reconciliation derives, and compares the decision with the expected one.
 *
 * <p>It works in tables of its own ({@code gateway_lab_orders} from {@code ddl/<db>/lab.sql}, and
 * {@code gateway_lab_outbox}, the default {@code outbox.sql} under that name; their rows are replaced at each run) and on a broker queue of its own per run
 * ({@code gateway.lab.<run>}), so that the broker's duplicate-id cache of earlier runs plays no part.
 *
 * <p>What it demonstrates: the dual-write gap, local atomicity of a domain change and its intent, the duplicate a crash
 * between publish and mark causes, and stuck-intent detection. What it does not prove: broker-wide exactly-once,
 * downstream idempotency, total ordering, or production reliability.
 */
public class ReconciliationLab {

    static final String ORDERS = "gateway_lab_orders";
    static final String OUTBOX = "gateway_lab_outbox";

    /** One probe's outcome. */
    public record ProbeResult(String probe, ReconciliationDecision expected, ReconciliationDecision actual,
                              IntentEvidence evidence, List<String> observations, String problem) {

        public boolean passed() {
            return problem == null && expected == actual;
        }
    }

    private final GatewayDataSources dataSources;
    private final OutboxRelayFactory relays;
    private final Reconciliation reconciliation;
    private final ConnectionFactory connectionFactory;
    private final Clock clock;

    public ReconciliationLab(GatewayDataSources dataSources, OutboxRelayFactory relays, Reconciliation reconciliation,
                             ConnectionFactory connectionFactory, Clock clock) {
        this.dataSources = dataSources;
        this.relays = relays;
        this.reconciliation = reconciliation;
        this.connectionFactory = connectionFactory;
        this.clock = clock;
    }

    /** Runs the four probes in order, printing each; returns their results. */
    public List<ProbeResult> run(String dataSource, PrintStream out) throws JMSException {
        Dialect dialect = dataSources.dialect(dataSource);
        if (!dialect.testedHere()) {
            throw new IllegalArgumentException("--data-source: the lab runs on PostgreSQL, MariaDB and H2, not "
                    + dialect.id());
        }
        JdbcTemplate jdbc = new JdbcTemplate(dataSources.get(dataSource, "--data-source"));
        SchemaScripts.apply(dataSources.get(dataSource, "--data-source"), dialect, "relay-state.sql");
        SchemaScripts.apply(dataSources.get(dataSource, "--data-source"), dialect, "lab.sql");
        SchemaScripts.applyOutboxAs(dataSources.get(dataSource, "--data-source"), dialect, OUTBOX);
        jdbc.update("DELETE FROM " + OUTBOX);
        jdbc.update("DELETE FROM " + ORDERS);

        String run = UUID.randomUUID().toString().substring(0, 8);
        String queue = "gateway.lab." + run;
        AtomicBoolean crash = new AtomicBoolean();
        RelayCycleHook crashBeforeMark = (relay, published) -> {
            if (crash.getAndSet(false)) {
                throw new IllegalStateException("lab: the relay dies after the broker confirmed " + published.size()
                        + " event(s) and before its mark commits");
            }
        };
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("relay", "lab-" + run);
        p.put("dataSource", dataSource);
        p.put("table", OUTBOX);
        p.put("destination", "queue:" + queue);
        p.put("source", "urn:legacy-gateway:lab");
        p.put("maxAttempts", "5");
        p.put("retryBackoff", "1ms");
        p.put("maxRetryBackoff", "1ms");
        p.put("domainTable", ORDERS);
        p.put("domainKeyColumn", "id");
        p.put("domainAggregateType", "Order");
        OutboxRelay relay = relays.create(p, List.of(crashBeforeMark));
        out.println("Reconciliation lab, run " + run + ": datasource '" + dataSource + "' (" + dialect.id()
                + "), broker queue " + queue + ", relay " + relay.name() + " with attempt log");
        Probes probes = new Probes(jdbc, new TransactionTemplate(dataSources.transactionManager(dataSource)), dialect,
                relay, queue, crash);
        List<ProbeResult> results = new ArrayList<>();
        results.add(report(out, 1, probes.baseline()));
        results.add(report(out, 2, probes.dualWrite()));
        results.add(report(out, 3, probes.crashBeforeMark()));
        results.add(report(out, 4, probes.oldPending()));
        long passed = results.stream().filter(ProbeResult::passed).count();
        out.println();
        out.println("Lab: " + passed + "/" + results.size() + " probes classified as expected. This shows the"
                + " dual-write gap, local atomicity of a change and its intent, the duplicate a crash between publish"
                + " and mark causes, and stuck-intent detection; it does not prove broker-wide exactly-once, downstream"
                + " idempotency, total ordering or production reliability.");
        return results;
    }

    private static ProbeResult report(PrintStream out, int n, ProbeResult r) {
        out.println();
        out.println("Probe " + n + "/4 " + r.probe());
        r.observations().forEach(o -> out.println("  observed: " + o));
        if (r.evidence() != null) {
            r.evidence().render().lines().forEach(l -> out.println("  " + l));
        }
        if (r.problem() != null) {
            out.println("  PROBLEM: " + r.problem());
        }
        out.println("  expected " + r.expected() + ", classified " + r.actual() + ": "
                + (r.passed() ? "PASS" : "FAIL"));
        return r;
    }

    /** The probes, sharing the lab's tables, relay and queue. */
    private final class Probes {
        private final JdbcTemplate jdbc;
        private final TransactionTemplate tx;
        private final Dialect dialect;
        private final OutboxRelay relay;
        private final String queue;
        private final AtomicBoolean crash;

        Probes(JdbcTemplate jdbc, TransactionTemplate tx, Dialect dialect, OutboxRelay relay, String queue,
               AtomicBoolean crash) {
            this.jdbc = jdbc;
            this.tx = tx;
            this.dialect = dialect;
            this.relay = relay;
            this.queue = queue;
            this.crash = crash;
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
