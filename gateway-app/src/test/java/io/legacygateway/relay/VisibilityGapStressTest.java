package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.TestDatabase;
import jakarta.jms.ConnectionFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * F1, the visibility gap (reliability suite R9): writers commit out of order, and a ZERO_WRITE relay must publish
 * every committed row exactly once while a plain id cursor over the same rows, the negative control, loses some.
 *
 * <p>Per database: 1000 writer transactions of 1-3 outbox rows each, paced at 8 per second. 20% stay open for a
 * random 0.1-10 s before they commit, 5% roll back, and one transaction, started first, stays open 120 s. Commits are
 * driven by a timer, not by sleeps. The relay polls every 100 ms, the control cursor ({@code seq > last}) every 50 ms,
 * both while the writers run. Then: every committed row published once, no rolled-back row published, and the control
 * lost rows (else the test could not detect loss). PostgreSQL and MariaDB run side by side (the two test methods run
 * concurrently), so their long transactions overlap.
 */
@Tag("stress") // left out of the default run for its length: -Plong-runs (docs/testing.md)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Import(VisibilityGapStressTest.Published.class)
@Execution(ExecutionMode.SAME_THREAD)
class VisibilityGapStressTest {

    private static final Logger log = LoggerFactory.getLogger(VisibilityGapStressTest.class);

    static final int TRANSACTIONS = 1000;
    static final double HELD_SHARE = 0.20;
    static final double ROLLBACK_SHARE = 0.05;
    static final Duration MAX_HELD = Duration.ofSeconds(10);
    static final Duration LONG_TRANSACTION = Duration.ofSeconds(120);
    /** 8 transactions per second: the 1000 span the long transaction, with about 8 held open at any time. */
    static final Duration PACE = Duration.ofMillis(125);
    /** A writer that finds the server full (other suites share it) tries again after this, on a timer. */
    static final Duration RETRY_CONNECT = Duration.ofMillis(250);

    @DynamicPropertySource
    static void databases(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "pg", TestDatabase.POSTGRES, VisibilityGapStressTest.class);
        LegacyDatabases.register(registry, "maria", TestDatabase.MARIADB, VisibilityGapStressTest.class);
    }

    /** Records when the broker confirmed each event, for every relay (a publish that rolled back is counted too). */
    @TestConfiguration
    static class Published {
        final Map<String, List<String>> ids = new ConcurrentHashMap<>();
        final Map<String, Instant> at = new ConcurrentHashMap<>();

        @Bean
        RelayCycleHook publishedEvents() {
            return (relay, rows) -> {
                Instant now = Instant.now();
                List<String> list = ids.computeIfAbsent(relay, r -> java.util.Collections.synchronizedList(new ArrayList<>()));
                for (OutboxRow row : rows) {
                    list.add(row.eventId());
                    at.putIfAbsent(row.eventId(), now);
                }
            };
        }

        @Bean
        Published published() {
            return this;
        }
    }

    @Autowired
    OutboxRelayFactory factory;
    @Autowired
    GatewayDataSources dataSources;
    @Autowired
    ConnectionFactory connectionFactory;
    @Autowired
    Published published;

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void postgresZeroWritePublishesEveryLateCommitOnceWhileAnIdCursorLosesSome() throws Exception {
        new Scenario("pg", 42).run();
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void mariaDbZeroWritePublishesEveryLateCommitOnceWhileAnIdCursorLosesSome() throws Exception {
        new Scenario("maria", 43).run();
    }

    /** One database's run: writers, the relay, the control cursor, and the verdict. */
    final class Scenario {
        private final String dataSource;
        private final Random random;
        private final String url;
        private final String user;
        private final JdbcTemplate jdbc;
        private final Set<String> committed = ConcurrentHashMap.newKeySet();
        private final Set<String> rolledBack = ConcurrentHashMap.newKeySet();
        private final Map<String, Instant> committedAt = new ConcurrentHashMap<>();
        private final Set<String> seenByCursor = ConcurrentHashMap.newKeySet();
        private final AtomicLong cursor = new AtomicLong();
        private final AtomicInteger held = new AtomicInteger();
        private final AtomicInteger maxOpen = new AtomicInteger();
        private final AtomicInteger open = new AtomicInteger();
        private final AtomicInteger connectRetries = new AtomicInteger();
        private final CountDownLatch ended = new CountDownLatch(TRANSACTIONS + 1);
        private final List<Throwable> writerErrors = java.util.Collections.synchronizedList(new ArrayList<>());

        Scenario(String dataSource, long seed) throws SQLException {
            this.dataSource = dataSource;
            this.random = new Random(seed);
            this.jdbc = new JdbcTemplate(dataSources.get(dataSource, "test"));
            try (Connection c = dataSources.get(dataSource, "test").getConnection()) {
                this.url = c.getMetaData().getURL();
                this.user = c.getMetaData().getUserName().replaceAll("@.*", "");
            }
        }

        void run() throws Exception {
            String queue = "it.stress." + dataSource + "-" + UUID.randomUUID().toString().substring(0, 8);
            OutboxRelay relay = factory.create(Map.of("relay", "stress-" + dataSource, "dataSource", dataSource,
                    "table", "outbox", "markMode", "ZERO_WRITE", "destination", "queue:" + queue, "batchSize", "100"));
            ScheduledExecutorService timers = Executors.newScheduledThreadPool(4);
            ExecutorService writers = Executors.newFixedThreadPool(4);
            Instant started = Instant.now();
            try {
                ScheduledFuture<?> relayPolls = timers.scheduleWithFixedDelay(() -> relay.drain(() -> false), 100, 100,
                        TimeUnit.MILLISECONDS);
                ScheduledFuture<?> cursorPolls = timers.scheduleWithFixedDelay(this::pollLikeAnIdCursor, 50, 50,
                        TimeUnit.MILLISECONDS);

                // the long transaction first, so that every later row commits while it is open
                writers.submit(() -> transaction(timers, LONG_TRANSACTION, false));
                List<Duration> holds = new ArrayList<>();
                List<Boolean> rollbacks = new ArrayList<>();
                for (int i = 0; i < TRANSACTIONS; i++) {
                    double dice = random.nextDouble();
                    rollbacks.add(dice < ROLLBACK_SHARE);
                    holds.add(dice >= ROLLBACK_SHARE && dice < ROLLBACK_SHARE + HELD_SHARE
                            ? Duration.ofMillis(100 + random.nextInt((int) MAX_HELD.toMillis() - 100)) : Duration.ZERO);
                }
                AtomicInteger next = new AtomicInteger();
                ScheduledFuture<?> pacer = timers.scheduleAtFixedRate(() -> {
                    int i = next.getAndIncrement();
                    if (i < TRANSACTIONS) {
                        writers.submit(() -> transaction(timers, holds.get(i), rollbacks.get(i)));
                    }
                }, PACE.toMillis(), PACE.toMillis(), TimeUnit.MILLISECONDS);

                assertThat(ended.await(LONG_TRANSACTION.toSeconds() + 120, TimeUnit.SECONDS))
                        .as("all writer transactions ended").isTrue();
                pacer.cancel(false);
                assertThat(writerErrors).as("writer errors").isEmpty();
                Duration writing = Duration.between(started, Instant.now());

                try {
                    // no more than seconds here, unless another suite on this machine holds a long transaction
                    Awaitility.await("relay publishes every committed row").atMost(Duration.ofMinutes(4))
                            .pollInterval(Duration.ofMillis(250))
                            .until(() -> new HashSet<>(publishedBy(relay)).containsAll(committed));
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    log.error("{}: the relay did not publish every committed row within 4 minutes", dataSource);
                }
                // the control has seen everything it will ever see once it has passed the last row
                long last = jdbc.queryForObject("SELECT MAX(seq) FROM outbox", Long.class);
                Awaitility.await("control cursor reaches the end").atMost(Duration.ofSeconds(10))
                        .until(() -> cursor.get() >= last);
                relayPolls.cancel(false);
                cursorPolls.cancel(false);
                timers.shutdown();
                assertThat(timers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

                verdict(relay, queue, writing);
            } finally {
                timers.shutdownNow();
                writers.shutdownNow();
            }
        }

        /** One writer transaction: 1-3 rows, then commit now, after {@code hold}, or roll back. */
        private void transaction(ScheduledExecutorService timers, Duration hold, boolean rollback) {
            try {
                Connection c;
                try {
                    c = DriverManager.getConnection(url, user, "");
                } catch (SQLException full) {
                    if (!tooManyConnections(full)) {
                        throw full;
                    }
                    // nothing has happened yet: start this transaction again a little later
                    connectRetries.incrementAndGet();
                    timers.schedule(() -> transaction(timers, hold, rollback), RETRY_CONNECT.toMillis(),
                            TimeUnit.MILLISECONDS);
                    return;
                }
                c.setAutoCommit(false);
                int rows = 1 + ThreadLocalRandomHolder.next(3);
                List<String> ids = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO outbox (id, aggregate_type, aggregate_id,"
                        + " event_type, payload) VALUES (?, 'Order', ?, 'OrderChanged', ?)")) {
                    for (int r = 0; r < rows; r++) {
                        String id = UUID.randomUUID().toString();
                        ps.setString(1, id);
                        ps.setString(2, "order-" + ThreadLocalRandomHolder.next(20));
                        ps.setString(3, "{\"id\":\"" + id + "\"}");
                        ps.executeUpdate();
                        ids.add(id);
                    }
                }
                maxOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
                if (rollback) {
                    end(c, ids, false);
                } else if (hold.isZero()) {
                    end(c, ids, true);
                } else {
                    held.incrementAndGet();
                    timers.schedule(() -> end(c, ids, true), hold.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (SQLException | RuntimeException e) {
                writerErrors.add(e);
                ended.countDown();
            }
        }

        /** PostgreSQL 53300, MariaDB 1040: the server's connection limit, reached by everything on this machine. */
        private static boolean tooManyConnections(SQLException e) {
            return "53300".equals(e.getSQLState()) || e.getErrorCode() == 1040
                    || String.valueOf(e.getMessage()).toLowerCase().contains("too many");
        }

        private void end(Connection c, List<String> ids, boolean commit) {
            try (c) {
                if (commit) {
                    c.commit();
                    Instant now = Instant.now();
                    committed.addAll(ids);
                    ids.forEach(id -> committedAt.put(id, now));
                } else {
                    c.rollback();
                    rolledBack.addAll(ids);
                }
            } catch (SQLException e) {
                writerErrors.add(e);
            } finally {
                open.decrementAndGet();
                ended.countDown();
            }
        }

        /** The negative control: what Kafka Connect's incrementing mode does, {@code WHERE seq > last}. */
        private void pollLikeAnIdCursor() {
            try {
                jdbc.query("SELECT seq, id FROM outbox WHERE seq > ? ORDER BY seq", rs -> {
                    seenByCursor.add(rs.getString(2));
                    cursor.accumulateAndGet(rs.getLong(1), Math::max);
                }, cursor.get());
            } catch (RuntimeException e) {
                log.warn("control cursor poll failed: {}", e.toString());
            }
        }

        private List<String> publishedBy(OutboxRelay relay) {
            List<String> ids = published.ids.getOrDefault(relay.name(), List.of());
            synchronized (ids) {
                return new ArrayList<>(ids);
            }
        }

        private void verdict(OutboxRelay relay, String queue, Duration writing) {
            List<String> sent = publishedBy(relay);
            Map<String, Integer> times = new HashMap<>();
            sent.forEach(id -> times.merge(id, 1, Integer::sum));
            Set<String> lost = new HashSet<>(committed);
            lost.removeAll(times.keySet());
            long duplicated = times.values().stream().filter(n -> n > 1).count();
            Set<String> phantom = new HashSet<>(times.keySet());
            phantom.retainAll(rolledBack);
            Set<String> controlLost = new HashSet<>(committed);
            controlLost.removeAll(seenByCursor);
            int onQueue = new QueueProbe(connectionFactory).count(queue);
            long maxStaleness = committed.stream().filter(published.at::containsKey)
                    .mapToLong(id -> Duration.between(committedAt.get(id), published.at.get(id)).toMillis())
                    .max().orElse(0);
            String figures = String.format("R9 db=%s transactions=%d held=%d (<=%ds) long=%ds rolledBackRows=%d"
                            + " committedRows=%d published=%d onQueue=%d lost=%d duplicated=%d phantom=%d"
                            + " controlLost=%d maxOpenTransactions=%d maxStalenessMs=%d writing=%ds connectRetries=%d",
                    dataSource, TRANSACTIONS + 1, held.get(), MAX_HELD.toSeconds(), LONG_TRANSACTION.toSeconds(),
                    rolledBack.size(), committed.size(), sent.size(), onQueue, lost.size(), duplicated, phantom.size(),
                    controlLost.size(), maxOpen.get(), maxStaleness, writing.toSeconds(), connectRetries.get());
            log.info(figures);
            System.out.println(figures);

            assertThat(lost).as("committed rows the relay never published").isEmpty();
            assertThat(duplicated).as("rows the relay published more than once").isZero();
            assertThat(phantom).as("rolled-back rows published").isEmpty();
            assertThat(onQueue).as("events on the queue").isEqualTo(committed.size());
            assertThat(controlLost).as("the id cursor must lose rows, or this test could not detect loss").isNotEmpty();
            assertThat(maxStaleness).as("the long transaction held the horizon back")
                    .isGreaterThan(LONG_TRANSACTION.toMillis() / 2);
        }
    }

    /** Random choices of the writer threads (the schedule itself comes from the seeded generator). */
    private static final class ThreadLocalRandomHolder {
        static int next(int bound) {
            return java.util.concurrent.ThreadLocalRandom.current().nextInt(bound);
        }
    }
}
