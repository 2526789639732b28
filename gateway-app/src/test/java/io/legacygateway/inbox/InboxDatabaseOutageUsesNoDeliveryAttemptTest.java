package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.TcpProxy;
import jakarta.jms.ConnectionFactory;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.camel.api.management.ManagedCamelContext;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.context.ActiveProfiles;

/**
 * Failure (issue 9, item 1): with the default {@code maxBackoff} ({@code 30s}) an inbox database outage used up the
 * broker's delivery attempts and the broker dead-lettered messages by itself (no {@code gw_dlq_*} reason), while
 * {@code gateway_inbox_rollbacks_total} stayed 0: the backoff reached Camel as text, the in-process retry failed at
 * every attempt, and the listener rolled the session back.
 *
 * <p>The queue gets broker address settings that make attempts cheap to use up: {@code max-delivery-attempts} 3,
 * {@code redelivery-delay} 200 ms, no multiplier. Through the TCP proxy an attempt against the stopped database fails
 * within the pool's 1 s connect timeout, so one message's three attempts are gone in under 4 s: the 10 s outage here
 * (shorter than the 60 s to keep the suite short) would exhaust them more than twice over. Expected instead: the
 * consumers hold their messages unacknowledged and retry in-process (default backoff), so during the whole outage the
 * broker schedules no redelivery, its dead-letter queue stays empty, nothing is applied, and no rollback is counted;
 * afterwards every message is applied exactly once. A rollback that does happen (the route stopped during the
 * outage hands its messages back) is counted, one per session (one per message with {@code batchSize=1}).
 *
 * <p>Failure (found 5 December 2026): a route stopped during the outage waited for the whole shutdown timeout (30 s)
 * and was then forced: its route status stays started while Camel waits for the batches in hand, so the sessions kept
 * retrying. They now also give up once their listener container stops, and the stop is graceful.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class InboxDatabaseOutageUsesNoDeliveryAttemptTest extends InboxTestSupport {

    static final Duration OUTAGE = Duration.ofSeconds(10);
    static final int MAX_DELIVERY_ATTEMPTS = 3;
    static final int SESSIONS = 2;

    private final List<String> addressSettings = new ArrayList<>();

    /** The proxy between the gateway and the database; started by the subclass before the context. */
    protected abstract TcpProxy proxy();

    /** The database's URL without the proxy. */
    protected abstract String directUrl();

    @Override
    protected DataSource testDataSource() {
        return new DriverManagerDataSource(directUrl(), dataSources.get("target", "test") instanceof
                HikariDataSource h ? h.getUsername() : null, "");
    }

    @Override
    protected ConnectionFactory brokerConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @AfterEach
    void databaseBackAndBrokerSettingsRemoved() {
        proxy().start();
        Awaitility.await("the gateway's pool reaches the database again").atMost(Duration.ofSeconds(30))
                .ignoreExceptions().until(() -> {
                    try (Connection c = dataSources.get("target", "test").getConnection()) {
                        return c.isValid(1);
                    }
                });
        addressSettings.forEach(match -> broker().invokeOnBroker("removeAddressSettings", match));
        addressSettings.clear();
    }

    @Test
    void anOutageWithTheDefaultBackoffSchedulesNoRedeliveryDeadLettersNothingAndAppliesEverythingOnceAfter() {
        String queue = cheapAttemptsQueue("it.outage");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("concurrentConsumers", Integer.toString(SESSIONS)));
        assertThat(consumer(consumer).settings().maxBackoff()).as("the default").isEqualTo(Duration.ofSeconds(30));
        assertThat(consumer(consumer).maxDeliveryAttempts()).as("the broker's settings apply")
                .isEqualTo(MAX_DELIVERY_ATTEMPTS);
        List<EventEnvelope> before = events(10);
        send(queue, before.toArray(EventEnvelope[]::new));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> effects() == 10);

        proxy().stop();
        List<EventEnvelope> during = events(20);
        send(queue, during.toArray(EventEnvelope[]::new));
        Awaitility.await("the consumers found the database unreachable").atMost(Duration.ofSeconds(30))
                .until(() -> counter("gateway.inbox.database.unreachable", consumer) >= SESSIONS);
        Awaitility.await("the outage: no redelivery scheduled, nothing dead-lettered or applied")
                .during(OUTAGE).atMost(OUTAGE.plusSeconds(15)).pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    assertThat(broker().queueAttribute(queue, "scheduledCount")).as("scheduled redeliveries")
                            .isZero();
                    assertThat(broker().queueAttribute(queue, "deliveringCount")).as("held by the sessions")
                            .isLessThanOrEqualTo(SESSIONS * perSession());
                    assertThat(deadLetters(queue)).as("DLQ").isEmpty();
                    assertThat(effects()).as("applied").isEqualTo(10);
                    assertThat(counter("gateway.inbox.rollbacks", consumer)).as("rollbacks").isZero();
                });
        proxy().start();

        Awaitility.await().atMost(Duration.ofSeconds(90))
                .until(() -> counter("gateway.inbox.applied", consumer) == 30.0);
        for (EventEnvelope e : during) {
            assertThat(effects(e.id())).as(e.id()).isEqualTo(1);
        }
        assertThat(effects()).isEqualTo(30);
        ManagedCamelContext managed = camel.getCamelContextExtension().getContextPlugin(ManagedCamelContext.class);
        assertThat(managed.getManagedProcessor("validate-" + consumer).getExchangesCompleted())
                .as("each message received and validated once: the retries ran only the database transaction again")
                .isEqualTo(30);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> broker().count(queue) == 0);
        assertThat(deadLetters(queue)).as("DLQ +0").isEmpty();
        assertThat(counter("gateway.inbox.rollbacks", consumer)).as("no delivery attempt used").isZero();
        assertThat(counter("gateway.inbox.dead.letters", consumer)).isZero();
    }

    @Test
    void stoppingTheConsumerDuringTheOutageHandsItsMessagesBackAtOnceAndCountsEachRollback() throws Exception {
        String queue = cheapAttemptsQueue("it.outage-stop");
        String consumer = unique("wallet");
        String route = startConsumer(consumer, queue, Map.of("concurrentConsumers", Integer.toString(SESSIONS)));
        proxy().stop();
        List<EventEnvelope> during = events(6);
        send(queue, during.toArray(EventEnvelope[]::new));
        // one message per session with batches of one; with batches, the sessions hold all six between them
        long held = Math.min(during.size(), (long) SESSIONS * perSession());
        Awaitility.await("the sessions hold their messages and retry in-process").atMost(Duration.ofSeconds(30))
                .until(() -> broker().queueAttribute(queue, "deliveringCount") == held
                        && counter("gateway.inbox.database.unreachable", consumer) >= (perSession() == 1 ? SESSIONS : 1));
        assertThat(counter("gateway.inbox.rollbacks", consumer)).isZero();

        camel.getRouteController().stopRoute(route);
        assertThat(camel.getShutdownStrategy().isTimeoutOccurred())
                .as("the route stopped gracefully: its sessions gave up waiting for the database when its container"
                        + " stopped, not when the shutdown timeout (%d s) forced them", camel.getShutdownStrategy()
                        .getTimeout())
                .isFalse();

        Awaitility.await("each held message went back to the broker").atMost(Duration.ofSeconds(15))
                .until(() -> broker().queueAttribute(queue, "deliveringCount") == 0);
        double rollbacks = counter("gateway.inbox.rollbacks", consumer);
        if (perSession() == 1) {
            assertThat(rollbacks).as("one rollback counted per held message").isEqualTo(SESSIONS);
        } else {
            assertThat(rollbacks).as("one rollback counted per session that held messages").isBetween(1.0,
                    (double) SESSIONS);
        }
        proxy().start();
        camel.getRouteController().startRoute(route);
        Awaitility.await().atMost(Duration.ofSeconds(60))
                .until(() -> counter("gateway.inbox.applied", consumer) == 6.0);
        for (EventEnvelope e : during) {
            assertThat(effects(e.id())).as(e.id()).isEqualTo(1);
        }
        assertThat(deadLetters(queue)).isEmpty();
        assertThat(counter("gateway.inbox.rollbacks", consumer)).as("none after the restart").isEqualTo(rollbacks);
    }

    /** A queue whose broker address settings make delivery attempts cheap to use up. */
    private String cheapAttemptsQueue(String prefix) {
        String queue = unique(prefix);
        broker().invokeOnBroker("addAddressSettings", queue, "{\"maxDeliveryAttempts\":" + MAX_DELIVERY_ATTEMPTS
                + ",\"redeliveryDelay\":200,\"redeliveryMultiplier\":1.0,\"maxRedeliveryDelay\":200}");
        addressSettings.add(queue);
        return queue;
    }

    private QueueProbe broker() {
        return new QueueProbe(brokerConnectionFactory());
    }

    private static List<EventEnvelope> events(int n) {
        List<EventEnvelope> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(orderCreated(i % 2 == 0 ? "alice" : "bob", "1"));
        }
        return list;
    }
}
