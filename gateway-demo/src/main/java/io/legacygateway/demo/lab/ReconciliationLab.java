package io.legacygateway.demo.lab;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.reconciliation.IntentEvidence;
import io.legacygateway.reconciliation.Reconciliation;
import io.legacygateway.reconciliation.ReconciliationDecision;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.relay.RelayCycleHook;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import java.io.PrintStream;
import java.time.Clock;
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
 * {@code gateway_lab_outbox}, the default {@code outbox.sql} under that name; their rows are replaced at each run) and
 * on a broker queue of its own per run ({@code gateway.lab.<run>}), so that the broker's duplicate-id cache of earlier
 * runs plays no part. The probes themselves are {@link LabProbes}; this class prepares what they share and prints.
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
        LabProbes probes = new LabProbes(jdbc, new TransactionTemplate(dataSources.transactionManager(dataSource)),
                dialect, relay, queue, crash, reconciliation, connectionFactory, clock);
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
}
