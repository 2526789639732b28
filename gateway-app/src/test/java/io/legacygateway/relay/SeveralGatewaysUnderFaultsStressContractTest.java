package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.GatewayProcess;
import io.legacygateway.testsupport.HaltingGateway;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.OutboxRows;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.TestDatabase;
import jakarta.jms.JMSException;
import jakarta.jms.TextMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Two and three gateway processes on one outbox (the same relay route in each) under a paced writer, through three
 * faults, each struck while a gateway holds a claimed batch sent and not yet committed on the broker
 * ({@link HaltingGateway}'s {@code hold-before-broker-commit}):
 * <ol>
 *   <li>{@code kill -9} of that gateway (then a new one is started in its place);</li>
 *   <li>{@code kill -STOP} of another for 30 s, then {@code kill -CONT};</li>
 *   <li>its database session ended from outside ({@code pg_terminate_backend} / {@code KILL CONNECTION}).</li>
 * </ol>
 * Then: every row written is published (lost 0), each event is on the queue once (dup 0), each aggregate's events in
 * the order they were written (inversions 0). Printed per fault: the takeover time, from the fault to the first publish
 * of a row the victim held. About two minutes per run.
 */
@Tag("stress") // -Plong-runs (docs/testing.md)
abstract class SeveralGatewaysUnderFaultsStressContractTest {

    private static final Duration START = Duration.ofSeconds(120);
    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration FROZEN = Duration.ofSeconds(30);
    private static final int AGGREGATES = 40;

    @TempDir
    Path workDir;

    private String url;
    private String queue;
    private int started;

    /** The database this class runs against: its {@code @OnPostgres}, {@code @OnMariaDb} or {@code @OnH2}. */
    protected TestDatabase database() {
        return TestDatabase.of(getClass());
    }

    /** The gateways' JDBC URL: the test's, marked so that {@link #endHeldSession} finds their sessions. */
    protected abstract String gatewayUrl(String url, String mark);

    /** Ends the gateways' session that has been idle in its transaction for a second or more (the held one). */
    protected abstract int endHeldSession(JdbcTemplate admin, String mark);

    @ParameterizedTest(name = "{0} gateways")
    @ValueSource(ints = {2, 3})
    void gatewaysOnOneOutboxUnderFaultsLoseNothingDuplicateNothingAndKeepEachAggregatesOrder(int count)
            throws Exception {
        url = LegacyDatabases.directUrl("legacy", database(), getClass());
        DriverManagerDataSource ds = new DriverManagerDataSource(url, database().username(), "");
        OutboxRows rows = new OutboxRows(ds);
        rows.clear();
        QueueProbe broker = new QueueProbe(StandaloneArtemis.shared().adminConnectionFactory());
        queue = "it.gateways." + UUID.randomUUID().toString().substring(0, 8);
        String mark = "gw-stress-" + UUID.randomUUID().toString().substring(0, 8);
        List<GatewayProcess.Running> gateways = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        Map<String, List<String>> written = new LinkedHashMap<>();
        ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();
        try {
            for (int i = 0; i < count; i++) {
                start(gateways, dirs, mark);
            }
            awaitRunning(gateways);
            // one writer on a timer, 100 rows/s over 40 aggregates: its commit order is the outbox order
            AtomicInteger n = new AtomicInteger();
            writer.scheduleAtFixedRate(() -> {
                int i = n.getAndIncrement();
                String aggregate = "agg-" + (i * 7 % AGGREGATES);
                String id = rows.insert(aggregate, "OrderChanged", "{\"n\":" + i + "}");
                synchronized (written) {
                    written.computeIfAbsent(aggregate, k -> new ArrayList<>()).add(id);
                }
            }, 0, 10, TimeUnit.MILLISECONDS);

            // 1: kill -9 of a holding gateway, a new one in its place
            Fault killed = hold(gateways, dirs, 0, ds);
            gateways.get(0).signal("KILL");
            report("kill -9", killed, rows);
            gateways.set(0, null);
            start(gateways, dirs, mark);
            awaitRunning(gateways.subList(count, count + 1));
            gateways.set(0, gateways.remove(count));
            dirs.set(0, dirs.remove(count));

            // 2: kill -STOP of another holding gateway for 30 s; the fence refuses its batch when it wakes
            Fault stopped = hold(gateways, dirs, 1, ds);
            gateways.get(1).signal("STOP");
            long frozenAt = System.nanoTime();
            report("kill -STOP", stopped, rows);
            int before = rows.count("PUBLISHED");
            Awaitility.await("the others publish while it is frozen").atMost(FROZEN.plusSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> System.nanoTime() - frozenAt >= FROZEN.toNanos());
            int during = rows.count("PUBLISHED") - before;
            System.out.printf("%s %d gateways: %d rows published by the others during the %d s freeze%n",
                    getClass().getSimpleName(), count, during, FROZEN.toSeconds());
            assertThat(during).as("rows published while one gateway was frozen").isGreaterThan(1000);
            Files.createFile(dirs.get(1).resolve(HaltingGateway.RELEASE));
            gateways.get(1).signal("CONT");
            Awaitility.await("the woken gateway's fence refuses its batch").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100)).until(() -> gateways.get(1).printed("no longer answers"));

            // 3: the held session ended from outside
            Fault ended = hold(gateways, dirs, count - 1, ds);
            JdbcTemplate admin = new JdbcTemplate(ds);
            // idle in its transaction for a second: the held session, not a running cycle of another gateway
            Awaitility.await("the held session is ended").atMost(Duration.ofSeconds(2))
                    .pollInterval(Duration.ofMillis(100)).until(() -> endHeldSession(admin, mark) == 1);
            Files.createFile(dirs.get(count - 1).resolve(HaltingGateway.RELEASE));
            report("session ended", ended, rows);

            writer.shutdown();
            assertThat(writer.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            int total = n.get();
            Awaitility.await("every row published").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(200)).until(() -> rows.count("PUBLISHED") == total);

            EnvelopeCodec codec = new EnvelopeCodec();
            List<String> seen = new ArrayList<>();
            Map<String, List<String>> byAggregate = new LinkedHashMap<>();
            for (TextMessage m : broker.drain(queue)) {
                EventEnvelope e = codec.read(text(m));
                seen.add(e.id());
                byAggregate.computeIfAbsent(e.subject(), k -> new ArrayList<>()).add(e.id());
            }
            Set<String> all = new HashSet<>();
            written.values().forEach(all::addAll);
            long lost = all.stream().filter(id -> !seen.contains(id)).count();
            long dup = seen.size() - new HashSet<>(seen).size();
            long inversions = written.entrySet().stream().filter(e -> !e.getValue().equals(
                    byAggregate.getOrDefault(e.getKey(), List.of()).stream().distinct().toList())).count();
            System.out.printf("%s %d gateways: %d rows written, lost %d, dup %d, aggregates out of order %d%n",
                    getClass().getSimpleName(), count, total, lost, dup, inversions);
            assertThat(lost).isZero();
            assertThat(dup).isZero();
            assertThat(inversions).isZero();
            assertThat(rows.charged()).as("rows charged an attempt").isZero();
        } finally {
            writer.shutdownNow();
            for (GatewayProcess.Running g : gateways) {
                if (g != null && g.alive()) {
                    g.signal("CONT");
                    g.stop();
                }
            }
        }
    }

    /** A fault's victim: the rows its held claim locks, by event id. */
    private record Fault(Set<String> held) {
    }

    /** Arms gateway {@code index}'s hold, waits for it, and finds the rows it holds locked. */
    private Fault hold(List<GatewayProcess.Running> gateways, List<Path> dirs, int index, DriverManagerDataSource ds)
            throws Exception {
        GatewayProcess.Running g = gateways.get(index);
        int holds = (int) g.output().lines().filter(l -> l.startsWith("HOLD #")).count();
        Files.createFile(dirs.get(index).resolve(HaltingGateway.HOLD));
        Awaitility.await("gateway " + index + " holds a batch").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(20)).until(() -> g.printed("HOLD #" + (holds + 1)));
        // rows locked now and still a moment later: the held claim's (other cycles take a few milliseconds)
        Set<String> held = locked(ds);
        Awaitility.await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> true);
        held.retainAll(locked(ds));
        assertThat(held).as("rows the holding gateway locks").isNotEmpty();
        return new Fault(held);
    }

    /** Prints the time from the fault to the first publish of a row the victim held. */
    private void report(String fault, Fault f, OutboxRows rows) {
        long at = System.nanoTime();
        Awaitility.await(fault + ": a row the victim held is published").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> f.held().stream().anyMatch(id -> "PUBLISHED".equals(rows.status(id))));
        System.out.printf("%s: %s: takeover %d ms (claimLease %d ms)%n", getClass().getSimpleName(), fault,
                (System.nanoTime() - at) / 1_000_000, LEASE.toMillis());
    }

    /** Pending rows some transaction locks: those a claim with SKIP LOCKED does not return. */
    private static Set<String> locked(DriverManagerDataSource ds) {
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(ds));
        tx.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        return tx.execute(s -> {
            JdbcTemplate jdbc = new JdbcTemplate(ds);
            Set<String> pending = new HashSet<>(jdbc.queryForList(
                    "SELECT id FROM outbox WHERE status = 'PENDING'", String.class));
            pending.removeAll(jdbc.queryForList(
                    "SELECT id FROM outbox WHERE status = 'PENDING' FOR UPDATE SKIP LOCKED", String.class));
            s.setRollbackOnly();
            return pending;
        });
    }

    private void start(List<GatewayProcess.Running> gateways, List<Path> dirs, String mark) throws Exception {
        Path cwd = Files.createDirectories(workDir.resolve("gateway-" + (++started)));
        gateways.add(HaltingGateway.startRelay(cwd, gatewayUrl(url, mark), database().username(), queue, 50, LEASE));
        dirs.add(cwd);
    }

    private static void awaitRunning(List<GatewayProcess.Running> gateways) {
        Awaitility.await("the gateways run the relay").atMost(START).pollInterval(Duration.ofMillis(200))
                .until(() -> gateways.stream().allMatch(g -> g.printed("Outbox relay 'orders'") || !g.alive()));
        gateways.forEach(g -> assertThat(g.alive()).as(g.output()).isTrue());
    }

    private static String text(TextMessage m) {
        try {
            return m.getText();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
