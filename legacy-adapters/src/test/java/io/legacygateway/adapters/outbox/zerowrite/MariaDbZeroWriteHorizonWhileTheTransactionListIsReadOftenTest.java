package io.legacygateway.adapters.outbox.zerowrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.springframework.transaction.TransactionDefinition.ISOLATION_READ_COMMITTED;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.outbox.store.OutboxFixture;
import io.legacygateway.adapters.outbox.store.RejectionLog;
import io.legacygateway.adapters.outbox.zerowrite.ZeroWriteReader.StartFrom;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.adapters.testsupport.ContractDatabase;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The window: MariaDB's {@code information_schema.INNODB_TRX} is a cache that InnoDB fills again only when nobody has
 * read it for 0.1 s. While a monitor (here a loop every 20 ms; in production a monitoring agent, or other gateways'
 * relays) reads it more often, the list stays as it was and misses a transaction begun since. A horizon taken from that
 * list passed the rows of such a transaction while it ran, and they were never published once it committed. Now a
 * horizon counts only when the list shows the reader's own transaction running that very read: while the list is
 * stale the relay publishes nothing new, and once it is refilled every row comes, in order, once. A restart needs no
 * horizon; a first start from NOW needs a proven one. The readers of several gateways on one server take turns, so
 * that none keeps the list stale for another, and the relays of one gateway on one datasource share each read. Default
 * settle time (1 s), as users get it.
 */
class MariaDbZeroWriteHorizonWhileTheTransactionListIsReadOftenTest {

    private TestSchema schema;
    private ZeroWriteReader reader;
    private RejectionLog log;
    private final AtomicBoolean monitoring = new AtomicBoolean(true);
    private final AtomicInteger monitorReads = new AtomicInteger();
    private Thread monitor;

    @BeforeEach
    void setUp() {
        schema = TestSchema.create(ContractDatabase.MARIADB, getClass(), GatewaySchema.OUTBOX, GatewaySchema.RELAY);
        TableInspector.Table table = TableInspector.inspect(schema.dataSource(), schema.dialect(),
                new TableName(null, "outbox"), "table");
        OutboxMapping mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.ZERO_WRITE, Map.of(),
                "PENDING", "PUBLISHED", "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
        log = new RejectionLog(schema.dataSource(), schema.dialect(), "zw", "often/outbox",
                "stateDataSource");
        reader = new ZeroWriteReader(schema.dataSource(), schema.dialect(), mapping, schema.dataSource(),
                schema.dialect(), log, "zw", "often/outbox", StartFrom.BEGINNING, Duration.ofSeconds(1), p -> p);
    }

    @AfterEach
    void tearDown() throws Exception {
        monitoring.set(false);
        if (monitor != null) {
            monitor.join();
        }
        schema.close();
    }

    @Test
    void aTransactionListReadMoreOftenThanItsCacheRefillsNeverLetsTheHorizonPassARunningTransaction() throws Exception {
        startMonitor();

        List<Long> published = new ArrayList<>();
        try (Connection legacyApp = schema.dataSource().getConnection()) {
            legacyApp.setAutoCommit(false);
            try (Statement s = legacyApp.createStatement()) {
                s.executeUpdate("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload)"
                        + " VALUES ('Order', 'late', 'OrderCreated', '{}')");
            }
            schema.jdbc().update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload)"
                    + " VALUES ('Order', 'early', 'OrderCreated', '{}')");

            // longer than the settle time: a horizon from the stale list would have passed both rows by now
            await("nothing published while a transaction the list misses runs").during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
                        published.addAll(cycle());
                        return published.isEmpty();
                    });
            legacyApp.commit();
        }
        monitoring.set(false);
        monitor.join();

        List<Long> keys = schema.jdbc().queryForList("SELECT seq FROM outbox ORDER BY seq", Long.class);
        assertThat(keys).hasSize(2);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            published.addAll(cycle());
            return published.size() >= 2;
        });
        assertThat(published).as("the late transaction's row first (outbox order), each once").isEqualTo(keys);
        assertThat(cycle()).isEmpty();
    }

    @Test
    void aRelayRestartedWhileTheListIsStaleStartsWithItsPosition() {
        startMonitor();
        ZeroWriteReader restarted = new ZeroWriteReader(schema.dataSource(), schema.dialect(), reader.mapping(),
                schema.dataSource(), schema.dialect(), log, "zw", "often/outbox", StartFrom.NOW, Duration.ofSeconds(1),
                p -> p);

        assertThat(restarted.backlog(Instant.now()).pending()).isZero();
        assertThat(schema.jdbc().queryForObject("SELECT window_low FROM gateway_outbox_position WHERE relay = 'zw'",
                String.class)).as("kept from the first start (BEGINNING), not moved to now").isNull();
    }

    @Test
    void aFirstStartFromNowWhileTheListIsStaleFailsNamingStartFrom() {
        startMonitor();

        assertThatThrownBy(() -> new ZeroWriteReader(schema.dataSource(), schema.dialect(), reader.mapping(),
                schema.dataSource(), schema.dialect(), log, "zw-now", "often/outbox", StartFrom.NOW,
                Duration.ofSeconds(1), p -> p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("startFrom: NOW needs a first commit horizon of mariadb")
                .hasMessageContaining("INNODB_TRX was not refilled");
        assertThat(schema.jdbc().queryForObject("SELECT count(*) FROM gateway_outbox_position WHERE relay = 'zw-now'",
                Integer.class)).isZero();
    }

    @Test
    void twoRelaysOfOneGatewayPollingAtTheDefaultIntervalDoNotKeepTheListStaleForEachOther() throws Exception {
        monitoring.set(false); // no monitor: the two relays' own reads are the frequent ones
        ZeroWriteReader second = new ZeroWriteReader(schema.dataSource(), schema.dialect(), reader.mapping(),
                schema.dataSource(), schema.dialect(), new RejectionLog(schema.dataSource(), schema.dialect(), "zw2",
                "often/outbox", "stateDataSource"), "zw2", "often/outbox", StartFrom.BEGINNING, Duration.ofSeconds(1),
                p -> p);
        List<Long> first = Collections.synchronizedList(new ArrayList<>());
        List<Long> other = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean polling = new AtomicBoolean(true);
        Thread a = new Thread(() -> poll(reader, first, polling), "relay-zw");
        Thread b = new Thread(() -> poll(second, other, polling), "relay-zw2");
        a.start();
        b.start();
        try {
            for (int i = 0; i < 20; i++) {
                schema.jdbc().update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload)"
                        + " VALUES ('Order', ?, 'OrderCreated', '{}')", "o-" + i);
            }
            List<Long> keys = schema.jdbc().queryForList("SELECT seq FROM outbox ORDER BY seq", Long.class);
            await().atMost(Duration.ofSeconds(30)).until(() -> first.size() >= 20 && other.size() >= 20);
            assertThat(first).isEqualTo(keys);
            assertThat(other).isEqualTo(keys);
        } finally {
            polling.set(false);
            a.join();
            b.join();
        }
    }

    @Test
    void aGatewayInAnotherJvmAskingAsOftenAsItMayDoesNotKeepTheListStaleForThisOne() throws Exception {
        monitoring.set(false); // no monitor: the other gateway's reads are the frequent ones
        Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), AnotherGatewaysZeroWriteReader.class.getName(),
                schema.url(), schema.database().username())
                .redirectError(new File("target", getClass().getSimpleName() + "-other-gateway.log"))
                .start();
        List<String> theirs = Collections.synchronizedList(new ArrayList<>());
        Thread answers = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(other.getInputStream(),
                    StandardCharsets.UTF_8))) {
                out.lines().filter(line -> line.startsWith("horizon ")).forEach(theirs::add);
            } catch (Exception e) {
                // the process was stopped
            }
        }, "other-gateway-answers");
        answers.start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> theirs.size() >= 3);
            ZeroWriteWindows ours = new ZeroWriteWindows(schema.dataSource(), schema.dialect(), reader.mapping(),
                    Duration.ofSeconds(1), p -> p);
            int before = theirs.size();
            List<Boolean> proven = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                proven.add(ours.askOnce().proven());
            }
            List<String> seen = List.copyOf(theirs);

            assertThat(seen.size() - before).as("the other gateway kept reading meanwhile").isGreaterThanOrEqualTo(5);
            assertThat(proven).as("this gateway's reads, each proven fresh").containsOnly(true);
            assertThat(seen).as("the other gateway's reads, each proven fresh")
                    .containsOnly(AnotherGatewaysZeroWriteReader.PROVEN);
        } finally {
            other.destroy();
            other.waitFor();
            answers.join();
        }
    }

    @Test
    void relaysOfOneGatewayOnOneDatasourceShareEachReadOfTheList() throws Exception {
        monitoring.set(false);
        AtomicInteger reads = new AtomicInteger();
        DataSource counted = countingHorizonReads(schema.dataSource(), reads);
        List<Duration> settles = List.of(Duration.ofSeconds(1), Duration.ofMillis(1500), Duration.ofSeconds(2),
                Duration.ofMillis(2500));
        List<ZeroWriteWindows> relays = settles.stream()
                .map(settle -> new ZeroWriteWindows(counted, schema.dialect(), reader.mapping(), settle, p -> p))
                .toList();
        CyclicBarrier together = new CyclicBarrier(relays.size());
        ExecutorService threads = Executors.newFixedThreadPool(relays.size());
        try {
            List<Future<Optional<String>>> asked = new ArrayList<>();
            for (ZeroWriteWindows relay : relays) {
                asked.add(threads.submit(() -> {
                    together.await();
                    return relay.horizon();
                }));
            }
            List<LocalDateTime> read = new ArrayList<>();
            for (int i = 0; i < relays.size(); i++) {
                Optional<String> horizon = asked.get(i).get(30, TimeUnit.SECONDS);
                assertThat(horizon).as("relay %d's horizon, proven", i).isPresent();
                read.add(LocalDateTime.parse(horizon.get()).plus(settles.get(i)));
            }

            assertThat(reads.get()).as("reads of the list for the four relays asking at once").isEqualTo(1);
            assertThat(read).as("each relay's horizon is that read's, less its own settle time")
                    .containsOnly(read.get(0));
        } finally {
            threads.shutdownNow();
        }
    }

    /** {@code dataSource}, counting the horizon reads prepared on its connections. */
    private static DataSource countingHorizonReads(DataSource dataSource, AtomicInteger reads) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    Object result = delegate(method, dataSource, args);
                    if (!(result instanceof Connection c)) {
                        return result;
                    }
                    return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                            (p, m, a) -> {
                                if (m.getName().equals("prepareStatement") && a[0] instanceof String sql
                                        && sql.contains("gateway commit horizon")) {
                                    reads.incrementAndGet();
                                }
                                return delegate(m, c, a);
                            });
                });
    }

    private static Object delegate(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** A relay's loop: a cycle, then the default poll interval (100 ms) when it found nothing. */
    private void poll(ZeroWriteReader relay, List<Long> published, AtomicBoolean polling) {
        try {
            while (polling.get()) {
                List<Long> keys = OutboxFixture.keysOf(schema.inTransaction(ISOLATION_READ_COMMITTED,
                        tx -> relay.claim(10, Instant.now())));
                published.addAll(keys);
                if (keys.isEmpty()) {
                    Thread.sleep(100); // the relay's own rhythm (pollInterval), not a wait of the test
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts the monitor; from its first read on, the list is kept as it was then. */
    private void startMonitor() {
        monitor = new Thread(this::readTheTransactionListEvery20Ms, "innodb-trx-monitor");
        monitor.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> monitorReads.get() >= 3);
    }

    /** One relay cycle, committed: the keys it claimed. */
    private List<Long> cycle() {
        // read committed, as the relay's cycles are
        return OutboxFixture.keysOf(schema.inTransaction(ISOLATION_READ_COMMITTED,
                tx -> reader.claim(10, Instant.now())));
    }

    private void readTheTransactionListEvery20Ms() {
        try (Connection c = schema.dataSource().getConnection(); Statement s = c.createStatement()) {
            while (monitoring.get()) {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.INNODB_TRX")) {
                    rs.next();
                }
                monitorReads.incrementAndGet();
                Thread.sleep(20); // the monitor's own rhythm, not a wait of the test
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
