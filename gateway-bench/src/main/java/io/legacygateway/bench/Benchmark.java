package io.legacygateway.bench;

import com.arjuna.ats.arjuna.coordinator.TxControl;
import io.legacygateway.adapters.capture.CaptureTriggers;
import io.legacygateway.adapters.capture.NotifyTrigger;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.config.TemplateParameters;
import io.legacygateway.relay.RelayParameters;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.transactions.TransactionMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.springframework.util.FileSystemUtils;

/**
 * Throughput of the gateway's relay and inbox next to what the same machine does by hand, in one run, on the same
 * database, the same standalone Artemis broker (durable: the repository's {@code artemis-config/broker.xml}), the
 * same ~1 KiB CloudEvents messages over 1,000 aggregates and the same batch sizes. Not a test: run
 * {@code bench/run.sh --help}.
 *
 * <p>Every figure is checked against the outcome before it is printed (rows marked, messages on the queue, effects
 * applied); a path that does not deliver exactly what it was given fails the run instead of printing a rate.
 */
public final class Benchmark {

    private final Options options;
    private final Report report = new Report(System.out);
    private final StandaloneArtemis artemis;
    private final BrokerQueues queues;
    private final ActiveMQConnectionFactory cf;
    /** Narayana's object store for the XA lines, in the bench's work folder (deleted with it). */
    private final Path transactionLog;
    private int queueNumber;
    /** Most warm-up runs of one path before its line ({@link #warmUp}). */
    private static final int WARM_UP_PASSES = 10;
    /** Drains of each backlog line, the fastest kept ({@link #backlog}). */
    private static final int BACKLOG_DRAINS = 3;
    /** Relays and consumers created so far: each gets a name of its own. */
    private int relays;

    private Benchmark(Options options, StandaloneArtemis artemis, Path transactionLog) {
        this.options = options;
        this.transactionLog = transactionLog;
        this.artemis = artemis;
        this.queues = new BrokerQueues(artemis);
        this.cf = queues.gatewayConnectionFactory(artemis);
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        Path work = Files.createTempDirectory("gw-bench-");
        StandaloneArtemis artemis = StandaloneArtemis.create(work.resolve("broker"));
        artemis.start();
        try {
            System.out.printf("Benchmark %s: %s; databases %s; relay %,d rows, batches %s, claimers %s, %s; inbox"
                            + " %,d messages, threads %s; backlog %,d pending in %,d and in %,d rows; Artemis 2.40.0"
                            + " (durable) at %s%n", Instant.now(), Machine.describe(), options.databases, options.rows,
                    options.batches, options.claimers, options.xa ? "LOCAL and XA" : "LOCAL only (--no-xa)",
                    options.messages, options.threads, options.backlogPending, options.backlogPending,
                    options.backlogTable, artemis.url());
            new Benchmark(options, artemis, work.resolve("tx-log")).run();
        } catch (Exception | Error e) {
            keepBrokerLogs(work.resolve("broker"));
            throw e;
        } finally {
            artemis.kill();
            if (Files.exists(work.resolve("tx-log"))) {
                // Narayana ran: its status record is otherwise removed by its shutdown hook, which would create the
                // object store's folders again after the work folder is gone
                TxControl.disable(true);
            }
            FileSystemUtils.deleteRecursively(work);
        }
    }

    /**
     * A failed run keeps the broker's logs (they would go with the work folder): a broker that stopped answering
     * (once, 5 December 2026: a queue's deletion unanswered for 120 s) is otherwise left unexplained.
     */
    private static void keepBrokerLogs(Path instance) {
        Path logs = instance.resolve("log");
        try {
            Path kept = Files.createTempDirectory("gw-bench-failed-broker-log-");
            FileSystemUtils.copyRecursively(logs, kept);
            System.err.println("The broker's logs of this failed run: " + kept);
        } catch (Exception e) {
            System.err.println("Could not keep the broker's logs of " + logs + ": " + e);
        }
    }

    private void run() throws Exception {
        for (BenchDatabase db : options.databases) {
            db.create(options.pendingIndex);
            // started first and idle while the hand-written paths run: each gateway line is measured right after its
            // references, so that the load of a shared machine changes as little as possible between them
            try (BenchedGateway gateway = new BenchedGateway(db, artemis, transactionLog,
                    options.relayParameters, options.inboxParameters)) {
                System.out.printf("%n%s (schema %s)%n", db.id, db.schema());
                for (int round = 1; round <= options.repeat; round++) {
                    if (options.sections.contains("relay")) {
                        relay(db, gateway, round);
                    }
                    if (options.sections.contains("inbox")) {
                        inbox(db, gateway);
                    }
                    if (options.sections.contains("backlog")) {
                        backlog(db, gateway);
                    }
                }
                if (options.latency) {
                    latency(db, gateway);
                }
            } finally {
                db.drop();
            }
        }
        report.printTables();
    }

    // ---------------------------------------------------------------- relay

    /**
     * Per batch size and claimers, back to back: the two raw ceilings, the hand-written pipeline, the gateway's relay
     * with and without the attempt log, then in XA; each path warmed up first at that very batch size and number of
     * claimers, unreported, until the JIT is done with it ({@link #warmUp}). A line that runs while the JIT still compiles the code it runs pays for that compilation:
     * flight recordings showed the compiler threads taking 1.5-4 s of CPU in a 100,000-row gateway line warmed up
     * only at another batch size or with one claimer (two relays, batch 500 and the attempt log: 41 µs per event of
     * the JVM's 70). Each line prints the JIT's compile time while it ran, so that what is left of it shows.
     */
    private void relay(BenchDatabase db, BenchedGateway gateway, int round) throws Exception {
        int w = options.batches.get(0);
        db.prefillOutbox(0, options.warmUp, options.analyze);
        HandWritten.claimAndMark(db, w, 1);
        String warm = queue();
        HandWritten.transactedSend(cf, warm, options.warmUp, w, 1);
        queues.destroy(warm);
        for (int b : options.batches) {
            for (int c : options.claimers) {
                String at = " b" + b + " c" + c;
                warmUpRelays(db, gateway, b, c);
                db.prefillOutbox(0, options.rows, options.analyze);
                measure(db, "ceiling jdbc" + at, "ceiling: JDBC claim + mark, batch " + b + ", " + c
                        + " claimer(s), no broker", false, List.of(), () -> HandWritten.claimAndMark(db, b, c));
                expectRows(db, "PUBLISHED", options.rows, "JDBC ceiling");
                String q = queue();
                measure(db, "ceiling jms" + at, "ceiling: JMS transacted send, " + b + " per commit, " + c
                                + " session(s), no DB", false, List.of(),
                        () -> HandWritten.transactedSend(cf, q, options.rows, b, c));
                queues.expect(q, options.rows, "JMS ceiling");
                queues.destroy(q);
                db.prefillOutbox(0, options.rows, options.analyze);
                String q2 = queue();
                measure(db, "pipeline" + at, "hand-written relay pipeline, batch " + b + ", " + c + " claimer(s)",
                        false, List.of("ceiling jdbc" + at, "ceiling jms" + at),
                        () -> HandWritten.pipeline(db, cf, q2, b, c));
                checkRelayed(db, q2, options.rows, options.rows, "hand-written pipeline");
                gatewayRelay(db, gateway, b, c, round);
            }
        }
    }

    /**
     * The hand-written pipeline and the gateway's relays (with and without the attempt log, and in XA) at this batch
     * size and number of claimers, unreported: {@code --warm-up} rows, and at least 200 cycles of each claimer, so
     * that the code of a cycle is compiled as well as the code of a row.
     */
    private void warmUpRelays(BenchDatabase db, BenchedGateway gateway, int b, int c) throws Exception {
        int rows = Math.max(options.warmUp, 200 * b * c);
        String at = " b" + b + " c" + c;
        warmUp("pipeline" + at, () -> drainedInto(db, rows, q -> HandWritten.pipeline(db, cf, q, b, c)));
        for (boolean attemptLog : new boolean[] {true, false}) {
            warmUp("gateway relay" + at + (attemptLog ? "" : " no attempt log"), () -> drainedInto(db, rows,
                    q -> gateway.relay("warm-" + (++relays), q, b, c, attemptLog)));
        }
        if (options.xa) {
            // XA runs other code (Narayana, the XA pool and session): compiled before its line, as LOCAL's is
            warmUp("gateway relay xa" + at, () -> drainedInto(db, rows,
                    q -> gateway.relay("warm-" + (++relays), q, b, c, true, TransactionMode.XA)));
        }
    }

    interface Relayed {
        long into(String queue) throws Exception;
    }

    /**
     * Prefills {@code rows} and relays them into a queue of their own, deleted after (the warm-up runs' messages
     * would otherwise pile up in the broker: 800,000 of them stalled it for 30 s).
     */
    private long drainedInto(BenchDatabase db, int rows, Relayed path) throws Exception {
        db.prefillOutbox(0, rows, options.analyze);
        String q = queue();
        long relayed;
        try {
            relayed = path.into(q);
        } catch (Exception e) {
            try {
                queues.destroy(q);
            } catch (RuntimeException d) {
                e.addSuppressed(d); // the path's failure is the one to report (its queue may not exist)
            }
            throw e;
        }
        queues.destroy(q);
        return relayed;
    }

    /**
     * Runs {@code pass} (an unreported run of one path) again until the JIT's compiler threads spent less than a
     * twentieth of its time compiling, at most {@value #WARM_UP_PASSES} times, and says how many it took: on a 2-core
     * machine the compiler of a JVM that holds a whole gateway works on for a while after a path's first run, and a
     * line that runs while it does pays for it.
     */
    private void warmUp(String path, Timed pass) throws Exception {
        double share = 1;
        int passes = 0;
        while (passes < WARM_UP_PASSES && share >= 0.05) {
            long jit = Machine.jitJiffies();
            long start = System.nanoTime();
            pass.run();
            share = Machine.seconds(Machine.jitJiffies() - jit) / ((System.nanoTime() - start) / 1e9);
            passes++;
        }
        System.out.printf("  (warm-up of %s: %d pass(es), JIT %.0f %% of the last)%n", path, passes, 100 * share);
    }

    /**
     * The gateway's relay lines of one batch size and claimers: LOCAL with and without the attempt log (their order
     * alternating by round), then, unless {@code --no-xa}, {@code transactionMode: XA} with the attempt log; each
     * compared with the hand-written pipeline, the XA line with the LOCAL line as well.
     */
    private void gatewayRelay(BenchDatabase db, BenchedGateway gateway, int b, int c, int round) throws Exception {
        String at = " b" + b + " c" + c;
        for (boolean attemptLog : round % 2 == 1 ? new boolean[] {true, false} : new boolean[] {false, true}) {
            db.prefillOutbox(0, options.rows, options.analyze);
            String q = queue();
            String name = "bench-" + (++relays);
            measure(db, "gateway relay" + at + (attemptLog ? "" : " no attempt log"),
                    "gateway relay, batch " + b + ", " + c + " relay(s)" + (attemptLog ? ""
                            : ", attemptLog: false"), true, List.of("pipeline" + at),
                    () -> gateway.relay(name, q, b, c, attemptLog));
            checkRelayed(db, q, options.rows, options.rows, "gateway relay");
        }
        if (options.xa) {
            db.prefillOutbox(0, options.rows, options.analyze);
            String q = queue();
            String name = "bench-" + (++relays);
            measure(db, "gateway relay xa" + at, "gateway relay, batch " + b + ", " + c
                            + " relay(s), transactionMode: XA", true, List.of("pipeline" + at, "gateway relay" + at),
                    () -> gateway.relay(name, q, b, c, true, TransactionMode.XA));
            checkRelayed(db, q, options.rows, options.rows, "gateway relay XA");
        }
    }

    /** Every row of the table PUBLISHED, and exactly the rows that were pending on the queue. */
    private void checkRelayed(BenchDatabase db, String queue, long rows, long sent, String what) throws Exception {
        expectRows(db, "PUBLISHED", rows, what);
        queues.expect(queue, sent, what);
        queues.destroy(queue);
    }

    private static void expectRows(BenchDatabase db, String status, long expected, String what) throws Exception {
        long actual = db.rows(status);
        if (actual != expected) {
            throw new IllegalStateException(what + ": " + actual + " rows " + status + ", expected " + expected);
        }
    }

    // ---------------------------------------------------------------- inbox

    /**
     * Per sessions, back to back: the batched and the naive hand-written inbox, the gateway's inbox; the batched and
     * the gateway's warmed up first with the sessions of their line ({@link #warmUp}).
     */
    private void inbox(BenchDatabase db, BenchedGateway gateway) throws Exception {
        int warm = options.warmUp;
        inboxRun(db, "warm-up", false, () -> HandWritten.naiveInbox(db, cf, currentQueue(), warm / 4, 4), warm / 4,
                List.of(), "bench-naive");
        for (int t : options.threads) {
            // each path warmed up with the sessions of its line (see relay)
            warmUp("inbox batched t" + t, () -> {
                inboxRun(db, "warm-up", false, () -> HandWritten.batchedInbox(db, cf, currentQueue(), warm, t, 100),
                        warm, List.of(), "bench-batched");
                return warm;
            });
            warmUp("gateway inbox t" + t, () -> {
                String warmConsumer = "bench-warm-" + (++relays);
                inboxRun(db, "warm-up", true, () -> gateway.inbox(warmConsumer, currentQueue(), t, warm), warm,
                        List.of(), warmConsumer);
                return warm;
            });
            inboxRun(db, "inbox batched t" + t, false, () -> HandWritten.batchedInbox(db, cf, currentQueue(),
                    options.messages, t, 100), options.messages, List.of(), "bench-batched");
            // a quarter of the messages, at most 10,000: one broker commit per message makes this the slowest line by
            // far (about 280/s with one session), and its rate is steady long before the end
            int naive = Math.max(1, Math.min(options.messages / 4, 10_000));
            inboxRun(db, "inbox naive t" + t, false, () -> HandWritten.naiveInbox(db, cf, currentQueue(), naive, t),
                    naive, List.of(), "bench-naive");
            String consumer = "bench-gateway-" + (++relays);
            inboxRun(db, "gateway inbox t" + t, true, () -> gateway.inbox(consumer, currentQueue(), t,
                    options.messages), options.messages, List.of("inbox batched t" + t, "inbox naive t" + t),
                    consumer);
        }
    }

    /** Fills a new queue, runs an inbox path on it (returning when its last effect committed), checks the effects. */
    private void inboxRun(BenchDatabase db, String key, boolean gateway, Timed endNanos, long messages,
                          List<String> ceilings, String consumer) throws Exception {
        db.resetInbox();
        String q = queue();
        Envelopes.fillQueue(cf, q, (int) messages);
        String label = switch (key.replaceAll(" t\\d+$", "")) {
            case "inbox batched" -> "hand-written batched inbox (100 per transaction)";
            case "inbox naive" -> "hand-written naive inbox (1 per transaction)";
            case "gateway inbox" -> "gateway inbox";
            default -> key;
        } + (key.matches(".* t\\d+$") ? ", " + key.replaceAll(".* t", "") + " thread(s)" : "");
        if (key.equals("warm-up")) {
            endNanos.run();
        } else {
            measureUntil(db, key, label, gateway, ceilings, messages, endNanos);
        }
        long applied = db.appliedEffects();
        long inbox = db.inboxRows(consumer);
        if (applied != messages || inbox != messages) {
            throw new IllegalStateException(key + ": " + applied + " effects and " + inbox + " inbox rows for "
                    + messages + " messages");
        }
        queues.expect(q, 0, key);
        queues.destroy(q);
    }

    // ---------------------------------------------------------------- backlog

    /**
     * The claim's cost must not grow with the table's history: the same pending rows drained from a table that holds
     * only them, and from one whose older rows (most of it) are already PUBLISHED and kept, as legacy tables keep them.
     * Each path drains each table {@value #BACKLOG_DRAINS} times, the two paths in turn, the table reset between drains
     * ({@link BenchDatabase#resetPublishedByRelay}); the table keeps each line's fastest drain, as {@code --repeat}
     * does. One drain of each varied by up to a fifth between runs of the same checkout (6 December 2026: the gateway's
     * 1M ÷ 100k 0.83 in one run, 1.03 in the next), more than the claim's cost the lines compare.
     */
    private void backlog(BenchDatabase db, BenchedGateway gateway) throws Exception {
        int b = options.batches.get(0);
        int pending = options.backlogPending;
        int history = options.backlogTable - pending;
        String small = size(pending) + " of " + size(pending);
        String big = size(pending) + " of " + size(options.backlogTable);
        db.prefillOutbox(0, options.warmUp, options.analyze);
        String warm = queue();
        HandWritten.pipeline(db, cf, warm, b, 1);
        db.prefillOutbox(0, options.warmUp, options.analyze);
        gateway.relay("warm-" + (++relays), warm, b, 1, true);
        queues.destroy(warm);
        for (boolean withHistory : new boolean[] {false, true}) {
            String shape = withHistory ? big : small;
            long rows = withHistory ? options.backlogTable : pending;
            db.prefillOutbox(withHistory ? history : 0, pending, options.analyze);
            for (int drain = 1; drain <= BACKLOG_DRAINS; drain++) {
                String q = queue();
                measure(db, "backlog pipeline " + shape, "backlog: hand-written pipeline, " + shape + " rows pending",
                        false, withHistory ? List.of("backlog pipeline " + small) : List.of(),
                        () -> HandWritten.pipeline(db, cf, q, b, 1));
                checkRelayed(db, q, rows, pending, "backlog pipeline");
                db.resetPublishedByRelay(options.analyze);
                String q2 = queue();
                measure(db, "backlog gateway " + shape, "backlog: gateway relay, " + shape + " rows pending", true,
                        withHistory ? List.of("backlog gateway " + small, "backlog pipeline " + big)
                                : List.of("backlog pipeline " + small),
                        () -> gateway.relay("backlog-" + (++relays), q2, b, 1, true));
                checkRelayed(db, q2, rows, pending, "backlog gateway");
                if (drain < BACKLOG_DRAINS) {
                    db.resetPublishedByRelay(options.analyze);
                }
            }
        }
    }

    private static String size(int n) {
        return n % 1_000_000 == 0 ? n / 1_000_000 + "M" : n % 1000 == 0 ? n / 1000 + "k" : String.valueOf(n);
    }

    // ---------------------------------------------------------------- latency

    /** One latency line of the relay: its route parameters, and whether the outbox's notify trigger is installed. */
    private record LatencyLine(String label, Map<String, String> parameters, boolean trigger) {
    }

    /**
     * At each rate: the relay by polling (at the configured or default pollInterval, and at 100 ms) and, on PostgreSQL,
     * woken by NOTIFY (the trigger of {@code triggers --notify} installed for the line), and polling at 100 ms with the
     * trigger installed but nobody listening (what the trigger alone costs the writers); then the inbox. The relay runs
     * at its default batchSize unless {@code --batch} names one: the latency users get.
     */
    private void latency(BenchDatabase db, BenchedGateway gateway) throws Exception {
        db.prefillOutbox(0, 0, false);
        db.keepStatistics(options.analyze);
        String poll = options.relayParameters.getOrDefault("pollInterval",
                TemplateParameters.definition(RelayParameters.class, "pollInterval").defaultValue());
        int batch = options.batchGiven ? options.batches.get(0) : Integer.parseInt(
                TemplateParameters.definition(RelayParameters.class, "batchSize").defaultValue());
        String statistics = options.analyze ? "statistics taken after the warm-up" : "never analysed";
        List<LatencyLine> lines = new ArrayList<>();
        lines.add(new LatencyLine("polling, pollInterval " + poll, Map.of(), false));
        if (!poll.equals("100ms")) {
            lines.add(new LatencyLine("polling, pollInterval 100ms", Map.of("pollInterval", "100ms"), false));
        }
        CaptureTriggers.Ddl notify = NotifyTrigger.offered(db.dialect)
                ? NotifyTrigger.generate(db.dialect, new TableName(null, "outbox")) : null;
        if (notify != null) {
            lines.add(new LatencyLine("wakeUp NOTIFY, pollInterval " + poll, Map.of("wakeUp", "NOTIFY"), true));
            lines.add(new LatencyLine("polling, pollInterval 100ms, notify trigger installed, nobody listening",
                    Map.of("pollInterval", "100ms"), true));
        }
        int n = 0;
        if (options.latencySections.contains("relay")) {
            // the first line of a run ran while the JIT compiled the whole path (its writers fell to 1,300 of 2,000
            // rows/s): one unreported line first
            String q = queue();
            try {
                Latency.relay(db, gateway, cf, q, batch, options.rates.get(0), 0, options.settle,
                        "latency-" + db.id + "-warm-up", Map.of(), options.analyze);
            } finally {
                queues.destroy(q);
            }
        }
        for (int rate : options.rates) {
            if (options.latencySections.contains("relay")) {
                for (LatencyLine line : lines) {
                    if (line.trigger()) {
                        db.execute(notify.install());
                    }
                    String q = queue();
                    try {
                        report.note(db.id + ": " + line.label() + ", batchSize " + batch + ", " + statistics + ": "
                                + Latency.relay(db, gateway, cf, q, batch, rate, options.settle, options.seconds,
                                "latency-" + db.id + "-" + (++n), line.parameters(), options.analyze));
                    } finally {
                        queues.destroy(q);
                        if (line.trigger()) {
                            db.execute(notify.remove());
                        }
                    }
                }
            }
            if (options.latencySections.contains("inbox")) {
                db.resetInbox();
                String q2 = queue();
                report.note(db.id + ": " + Latency.inbox(db, gateway, cf, q2, rate, options.seconds));
                queues.destroy(q2);
            }
        }
    }

    // ---------------------------------------------------------------- measuring

    interface Timed {
        long run() throws Exception;
    }

    /** Times {@code events} (returns the events handled) and records busy CPU and, for the gateway, the RSS. */
    private void measure(BenchDatabase db, String key, String label, boolean gateway, List<String> ceilings,
                         Timed events) throws Exception {
        try (Machine.RssPeak rss = new Machine.RssPeak()) {
            Machine.Cpu cpu = Machine.Cpu.now();
            long start = System.nanoTime();
            long n = events.run();
            double seconds = (System.nanoTime() - start) / 1e9;
            report.add(new Report.Line(db.id, key, label, n, seconds, Machine.Cpu.now().since(cpu),
                    gateway ? rss.peakKiB() : -1, ceilings));
        }
    }

    /** Times a path that reports the moment it finished ({@code endNanos}) for a known number of events. */
    private void measureUntil(BenchDatabase db, String key, String label, boolean gateway, List<String> ceilings,
                              long events, Timed endNanos) throws Exception {
        try (Machine.RssPeak rss = new Machine.RssPeak()) {
            Machine.Cpu cpu = Machine.Cpu.now();
            long start = System.nanoTime();
            long end = endNanos.run();
            report.add(new Report.Line(db.id, key, label, events, (end - start) / 1e9, Machine.Cpu.now().since(cpu),
                    gateway ? rss.peakKiB() : -1, ceilings));
        }
    }

    private String queue() {
        return "bench.q" + (++queueNumber);
    }

    private String currentQueue() {
        return "bench.q" + queueNumber;
    }
}
