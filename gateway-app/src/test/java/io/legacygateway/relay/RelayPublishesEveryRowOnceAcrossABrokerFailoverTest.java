package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.legacygateway.broker.BrokerFailovers;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.ops.GatewayHealthIndicators;
import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneArtemisPair;
import io.legacygateway.testsupport.StandaloneBroker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.jms.ConnectionFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthEndpointGroups;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Failure window: the active broker of the replicated pair ({@code artemis-config/ha/}) is killed (kill -9 of its JVM)
 * while a relay publishes under load. The gateway's client, with the pair's URL
 * ({@code (tcp://primary,tcp://backup)?ha=true&reconnectAttempts=-1&initialConnectAttempts=-1}), fails over to the
 * backup, which holds every batch the primary confirmed (replicated before the commit returned) and the primary's
 * duplicate-id cache. A batch cut by the kill is rolled back (the relay sends it again) or its commit's outcome is
 * unknown (the relay sends it again and the backup drops what it holds). Afterwards every row is marked, every event is
 * on the queue exactly once by event id (read from the backup), each aggregate's events in outbox order, and no row
 * has been charged an attempt.
 *
 * <p>And the gateway tells: {@code BrokerFailovers} logs the failure detected (WARN) and the failover's end with its
 * stall (INFO), counts one completed relay failover in {@code gateway_broker_failovers_total} and one stall in
 * {@code gateway_broker_failover_stall_seconds}, the readiness group's {@code brokerFailover} shows
 * {@code failingOver: true} while it lasts and {@code false} after (readiness itself stays UP), and no duplicate the
 * broker dropped is counted unexplained ({@code gateway_outbox_duplicate_ids_total} 0).
 *
 * <p>Real processes, no mocks: the two brokers are made from the Artemis distribution with the repository's HA files
 * ({@link StandaloneArtemisPair}); PostgreSQL; one writer thread inserting rows over 20 aggregates while the relay's
 * route (its timer at 100 ms, batches of 100, its backoff) publishes; the kill once a third of the rows are published.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnPostgres
class RelayPublishesEveryRowOnceAcrossABrokerFailoverTest extends RelayTestSupport {

    private static final Logger log = LoggerFactory.getLogger(RelayPublishesEveryRowOnceAcrossABrokerFailoverTest.class);

    private static final StandaloneArtemisPair PAIR = StandaloneArtemisPair.create().start();
    private static final int ROWS = 3000;
    private static final int AGGREGATES = 20;

    @DynamicPropertySource
    static void legacyDatabaseAndBrokerPair(DynamicPropertyRegistry registry) {
        StandaloneBroker.register(registry, PAIR::haUrl);
    }

    @AfterAll
    static void stopThePair() {
        PAIR.close();
    }

    @Autowired
    MeterRegistry meters;

    @Autowired
    CamelContext camel;

    @Autowired
    GatewayHealthIndicators.BrokerFailover failoverHealth;

    @Autowired
    HealthEndpointGroups healthGroups;

    /** The test's own reads follow the active broker too (the pair's URL, as the administrator). */
    @Override
    protected ConnectionFactory probeConnectionFactory() {
        return new ActiveMQConnectionFactory(PAIR.haUrl(), StandaloneArtemis.ADMIN, StandaloneArtemis.ADMIN);
    }

    @Test
    void everyRowIsPublishedOnceInOrderAcrossAKillOfThePrimary() throws Exception {
        long began = System.nanoTime();
        String queue = unique("it.failover");
        String name = unique("failover");
        double completedBefore = failovers("relay", "completed");
        double failedBefore = failovers("relay", "failed");
        long stallsBefore = stalls("relay").count();
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(BrokerFailovers.class)).addAppender(lines);
        // the legacy application: one writer, so each aggregate's insert order is its commit order
        Map<String, String> aggregateOf = new LinkedHashMap<>();
        AtomicReference<Throwable> writerFailed = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                for (int i = 0; i < ROWS; i++) {
                    String aggregate = "order-" + (i % AGGREGATES);
                    String id = rows.insert(aggregate, "OrderChanged", "{\"n\":" + i + "}");
                    synchronized (aggregateOf) {
                        aggregateOf.put(id, aggregate);
                    }
                }
            } catch (Throwable e) {
                writerFailed.set(e);
            }
        }, "legacy-writer");

        // the relay's own route, as a route file creates it: its timer, its backoff after a failed cycle
        String routeId = OutboxRelayTemplate.ROUTE_PREFIX + name;
        TemplatedRouteBuilder.builder(camel, OutboxRelayTemplate.TEMPLATE).routeId(routeId)
                .parameter("relay", name).parameter("dataSource", "legacy")
                .parameter("destination", "queue:" + queue).parameter("batchSize", "100")
                .parameter("pollInterval", "100ms").add();

        writer.start();
        try {
            Awaitility.await("a third of the rows published").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> failed(writerFailed) || rows.count("PUBLISHED") >= ROWS / 3);
            assertThat(failingOver()).as("readiness before the kill").isFalse();
            long killedAt = System.nanoTime();
            PAIR.killActive();
            int publishedAtKill = rows.count("PUBLISHED"); // once the primary is gone (give or take one batch)
            Awaitility.await("readiness showing the failover").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(10)).until(this::failingOver);
            Health during = failoverHealth.getHealth(true);
            assertThat(during.getStatus()).as("readiness stays UP during a failover").isEqualTo(Status.UP);
            assertThat(during.getDetails()).containsKey("relay");
            PAIR.awaitBackupActive(Duration.ofSeconds(60));
            long backupActiveAt = System.nanoTime();
            Awaitility.await("publishing resumed on the backup").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> rows.count("PUBLISHED") > publishedAtKill || publishedAtKill == ROWS);
            long resumedAt = System.nanoTime();
            writer.join(Duration.ofSeconds(60).toMillis());
            assertThat(writerFailed.get()).as("the writer's inserts").isNull();
            assertThat(writer.isAlive()).as("the writer finished").isFalse();
            Awaitility.await("every row published").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> rows.count("PUBLISHED") == ROWS);
            Awaitility.await("the failover's end").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20)).until(() -> !failingOver());
            log.info("Failover under relay load: kill -9 of the primary at {} of {} rows published; backup active"
                            + " after {} ms, publishing resumed after {} ms; all published {} ms after the kill;"
                            + " duplicate ids counted by the relay: {}", publishedAtKill, ROWS,
                    millis(killedAt, backupActiveAt), millis(killedAt, resumedAt), millis(killedAt, System.nanoTime()),
                    meters.counter("gateway.outbox.duplicate.ids", "relay", name).count());
            log.info("Failover as the gateway saw it: stall {} ms", stalls("relay").max(TimeUnit.MILLISECONDS));
        } finally {
            camel.getRouteController().stopRoute(routeId);
            camel.removeRoute(routeId);
            writer.interrupt();
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(BrokerFailovers.class)).detachAppender(lines);
        }

        assertThat(failovers("relay", "completed") - completedBefore).as("one failover completed").isEqualTo(1);
        assertThat(failovers("relay", "failed") - failedBefore).as("no failover failed").isZero();
        assertThat(stalls("relay").count() - stallsBefore).as("its stall timed once").isEqualTo(1);
        assertThat(lines.list).as("a WARN when the failure was detected").anyMatch(e -> e.getLevel() == Level.WARN
                && e.getFormattedMessage().contains("(relay) lost broker 127.0.0.1:" + PAIR.primary().port()));
        assertThat(lines.list).as("an INFO with the stall").anyMatch(e -> e.getLevel() == Level.INFO
                && e.getFormattedMessage().matches("Broker failover of the relay completed: publishing again after"
                        + " \\d+ ms"));
        assertThat(healthGroups.get("readiness").isMember("brokerFailover")).as("in the readiness group").isTrue();
        assertThat(meters.counter("gateway.outbox.duplicate.ids", "relay", name).count())
                .as("no unexplained duplicate").isZero();

        assertThat(rows.count("PUBLISHED")).as("every row marked").isEqualTo(ROWS);
        assertThat(rows.count("PENDING")).isZero();
        assertThat(rows.count("FAILED")).isZero();
        assertThat(rows.charged()).as("a failover charges no row an attempt").isZero();

        // what the backup holds, read from it directly
        List<String> onQueue = new QueueProbe(PAIR.backupAdminConnectionFactory()).drain(queue).stream()
                .map(m -> QueueProbe.property(m, EnvelopeMessages.ID)).toList();
        assertThat(onQueue).as("each event exactly once on the queue, by event id").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(aggregateOf.keySet());
        for (int a = 0; a < AGGREGATES; a++) {
            String aggregate = "order-" + a;
            List<String> written = aggregateOf.entrySet().stream().filter(e -> e.getValue().equals(aggregate))
                    .map(Map.Entry::getKey).toList();
            List<String> queued = new ArrayList<>(onQueue);
            queued.retainAll(new HashSet<>(written));
            assertThat(queued).as(aggregate + "'s events in outbox order").containsExactlyElementsOf(written);
        }
        log.info("Failover test: {} rows, {} ms in all", ROWS, millis(began, System.nanoTime()));
    }

    private boolean failingOver() {
        return Boolean.TRUE.equals(failoverHealth.getHealth(true).getDetails().get("failingOver"));
    }

    private double failovers(String role, String outcome) {
        return meters.counter("gateway.broker.failovers", "role", role, "outcome", outcome).count();
    }

    private Timer stalls(String role) {
        return meters.timer("gateway.broker.failover.stall", "role", role);
    }

    private static boolean failed(AtomicReference<Throwable> writerFailed) {
        if (writerFailed.get() != null) {
            throw new AssertionError("the writer failed", writerFailed.get());
        }
        return false;
    }

    private static long millis(long from, long to) {
        return TimeUnit.NANOSECONDS.toMillis(to - from);
    }
}
