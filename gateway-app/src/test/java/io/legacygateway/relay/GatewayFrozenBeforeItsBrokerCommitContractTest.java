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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Two gateway processes on one outbox (the same relay route in each), one of them frozen ({@code kill -STOP}) with a
 * claimed batch sent and not yet committed on the broker: the window of a long GC pause, a paused VM, a stopped
 * process.
 *
 * <ul>
 *   <li>Meanwhile the other gateway publishes the rows of other aggregates, although more than four batches of rows
 *       wait behind the frozen one's (its claim goes past them; before, it filled with them and published nothing
 *       until the frozen claim ended).</li>
 *   <li>After {@code claimLease} the database ends the frozen gateway's session: the other takes over its rows and
 *       publishes them and the rows behind them, in order.</li>
 *   <li>Woken ({@code kill -CONT}), the frozen gateway's fence refuses its stale batch: nothing of it is committed on
 *       the broker. Every row is marked, each event is on the queue once, and each aggregate's events in outbox
 *       order.</li>
 * </ul>
 */
abstract class GatewayFrozenBeforeItsBrokerCommitContractTest {

    private static final Duration START = Duration.ofSeconds(90);
    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final int BATCH = 10;

    @TempDir
    Path workDir;

    /** The database this class runs against: its {@code @OnPostgres}, {@code @OnMariaDb} or {@code @OnH2}. */
    protected TestDatabase database() {
        return TestDatabase.of(getClass());
    }

    @Test
    void theOtherGatewayMovesOnTakesTheFrozenOnesRowsAfterTheLeaseAndTheWokenOneCommitsNothing() throws Exception {
        String url = LegacyDatabases.directUrl("legacy", database(), getClass());
        DriverManagerDataSource ds = new DriverManagerDataSource(url, database().username(), "");
        OutboxRows rows = new OutboxRows(ds);
        rows.clear();
        StandaloneArtemis artemis = StandaloneArtemis.shared();
        QueueProbe broker = new QueueProbe(artemis.adminConnectionFactory());
        String queue = "it.frozen." + UUID.randomUUID().toString().substring(0, 8);

        List<GatewayProcess.Running> gateways = List.of(gateway("a", url, queue), gateway("b", url, queue));
        for (String name : List.of("a", "b")) {
            Files.createFile(workDir.resolve(name).resolve(HaltingGateway.HOLD)); // both armed: the first to hold
        }
        try {
            Awaitility.await("both gateways run the relay").atMost(START).pollInterval(Duration.ofMillis(200))
                    .until(() -> gateways.stream().allMatch(g -> g.printed("Outbox relay 'orders'")
                            || !g.alive()));
            gateways.forEach(g -> assertThat(g.alive()).as(g.output()).isTrue());

            // held-0..3, 15 rows each, interleaved, in one transaction: the first claim is the first 10, which hold
            // every held aggregate's head; 50 more wait behind them, more than 4 batches
            Map<String, List<String>> expected = new LinkedHashMap<>();
            new TransactionTemplate(new DataSourceTransactionManager(ds)).executeWithoutResult(tx -> {
                for (int i = 0; i < 60; i++) {
                    String aggregate = "held-" + (i % 4);
                    expected.computeIfAbsent(aggregate, k -> new ArrayList<>())
                            .add(rows.insert(aggregate, "OrderChanged", "{\"n\":" + i + "}"));
                }
            });
            List<String> heldFirst = new ArrayList<>();
            expected.values().forEach(ids -> heldFirst.addAll(ids.subList(0, 2))); // rows 1-8 (and 9, 10 below)
            Awaitility.await("a gateway holds its first batch before its broker commit").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> gateways.stream().anyMatch(g -> g.printed("HOLD #1")));
            GatewayProcess.Running frozen = gateways.stream().filter(g -> g.printed("HOLD #1")).findFirst()
                    .orElseThrow();
            GatewayProcess.Running other = gateways.get(0) == frozen ? gateways.get(1) : gateways.get(0);
            frozen.signal("STOP");
            long stopped = System.nanoTime();
            Files.createFile(workDir.resolve(name(frozen, gateways)).resolve(HaltingGateway.RELEASE)); // seen on CONT
            Path otherDir = workDir.resolve(name(other, gateways));
            if (!Files.deleteIfExists(otherDir.resolve(HaltingGateway.HOLD))) {
                Files.createFile(otherDir.resolve(HaltingGateway.RELEASE)); // it took its hold: let it go on
            }

            List<String> free = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                String aggregate = "free-" + (i % 3);
                String id = rows.insert(aggregate, "OrderChanged", "{\"n\":" + i + "}");
                expected.computeIfAbsent(aggregate, k -> new ArrayList<>()).add(id);
                free.add(id);
            }
            Awaitility.await("the other gateway publishes other aggregates' rows").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> free.stream().allMatch(id -> "PUBLISHED".equals(rows.status(id))));
            long freeMillis = (System.nanoTime() - stopped) / 1_000_000;
            Awaitility.await("the other gateway takes the frozen one's rows over").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> heldFirst.stream().anyMatch(id -> "PUBLISHED".equals(rows.status(id))));
            long takeoverMillis = (System.nanoTime() - stopped) / 1_000_000;
            Awaitility.await("every row published").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> rows.count("PUBLISHED") == 69);
            System.out.printf("%s: other aggregates published %d ms after the freeze, the frozen gateway's rows taken"
                    + " over after %d ms (claimLease %d ms)%n", getClass().getSimpleName(), freeMillis, takeoverMillis,
                    LEASE.toMillis());
            // the lease runs from the frozen session's last statement, before the freeze (its first cycle also opened
            // the broker connection): the takeover comes at most a lease and a few polls after the freeze, and no
            // sooner than the lease after that statement (ClaimLeaseContractTest)
            assertThat(takeoverMillis).as("the lease and a few polls").isLessThan(LEASE.toMillis() + 5_000);

            frozen.signal("CONT");
            Awaitility.await("the woken gateway's fence refuses its stale batch").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50)).until(() -> frozen.printed("no longer answers"));

            List<TextMessage> messages = broker.drain(queue);
            List<String> seen = new ArrayList<>();
            Map<String, List<String>> byAggregate = new LinkedHashMap<>();
            EnvelopeCodec codec = new EnvelopeCodec();
            for (TextMessage m : messages) {
                EventEnvelope e = codec.read(text(m));
                seen.add(e.id());
                byAggregate.computeIfAbsent(e.subject(), k -> new ArrayList<>()).add(e.id());
            }
            assertThat(seen).as("each event once").doesNotHaveDuplicates().hasSize(69);
            assertThat(byAggregate).as("each aggregate in outbox order").isEqualTo(expected);
            int firstHeld = seen.indexOf(heldFirst.get(0));
            assertThat(free.stream().mapToInt(seen::indexOf).max().orElseThrow())
                    .as("the other aggregates went before the frozen gateway's rows were taken over")
                    .isLessThan(firstHeld);
            assertThat(rows.count("PUBLISHED")).isEqualTo(69);
            assertThat(rows.charged()).as("rows charged an attempt").isZero();
        } finally {
            for (GatewayProcess.Running g : gateways) {
                if (g.alive()) {
                    g.signal("CONT");
                    g.stop();
                }
            }
        }
    }

    private static String name(GatewayProcess.Running g, List<GatewayProcess.Running> gateways) {
        return gateways.get(0) == g ? "a" : "b";
    }

    private static String text(TextMessage m) {
        try {
            return m.getText();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One gateway process with the relay {@code orders} of the outbox to {@code queue}, in a folder of its own. */
    private GatewayProcess.Running gateway(String name, String url, String queue) throws Exception {
        return HaltingGateway.startRelay(Files.createDirectories(workDir.resolve(name)), url, database().username(),
                queue, BATCH, LEASE);
    }
}
