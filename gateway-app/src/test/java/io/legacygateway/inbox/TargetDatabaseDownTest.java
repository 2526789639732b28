package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.TcpProxy;
import jakarta.jms.ConnectionFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.context.ActiveProfiles;

/**
 * Failure window: the consumer's database is unreachable for three times its {@code maxBackoff} (12 s: the last
 * in-process tries wait the longest backoff) while messages keep arriving. The gateway reaches it through a TCP proxy
 * that the test stops (every pooled connection is cut, new ones are refused) and starts again;
 * the test itself reads the database directly. The outage starts inside a delivery's transaction (the proxy is
 * stopped after its effect, before its commit), so both ways of losing the database are covered: a connection lost in
 * the transaction, and no connection at all. The consumer must not burn delivery attempts: it keeps its message
 * unacknowledged and retries in-process with backoff. Expected: nothing applied and nothing dead-lettered during the
 * outage, no message returned to the broker, and every message applied exactly once afterwards.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class TargetDatabaseDownTest extends InboxTestSupport {

    static final Duration MAX_BACKOFF = Duration.ofSeconds(4);
    /** Tries after 1, 2, 4 and 4 s: the backoff reaches its longest; a longer outage (30 s before) repeats that. */
    static final Duration OUTAGE = MAX_BACKOFF.multipliedBy(3);

    /** The proxy between the gateway and the database; started by the subclass before the context. */
    protected abstract TcpProxy proxy();

    /** The database's URL without the proxy. */
    protected abstract String directUrl();

    @Override
    protected DataSource testDataSource() {
        return new DriverManagerDataSource(directUrl(), dataSources.get("target", "test") instanceof
                com.zaxxer.hikari.HikariDataSource h ? h.getUsername() : null, "");
    }

    @Override
    protected ConnectionFactory brokerConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @Test
    void theTargetDatabaseDownLongerThanItsBackoffPutsNothingOnTheDeadLetterQueueAndEverythingIsAppliedAfterwards() {
        String queue = unique("it.db-down");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("concurrentConsumers", "2", "maxBackoff",
                MAX_BACKOFF.toSeconds() + "s"));
        List<EventEnvelope> before = events(10);
        send(queue, before.toArray(EventEnvelope[]::new));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> effects() == 10);

        // the outage starts inside a transaction: the connection is cut after the effect, before the commit
        EventEnvelope cut = orderCreated("carol", "7");
        java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();
        faults.probeBeforeDatabaseCommit(cut.id(), env -> {
            if (stopped.compareAndSet(false, true)) {
                proxy().stop();
            }
        });
        send(queue, cut);
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilTrue(stopped);
        List<EventEnvelope> during = events(40);
        send(queue, during.toArray(EventEnvelope[]::new));
        Awaitility.await("the outage: nothing applied, nothing dead-lettered")
                .during(OUTAGE).atMost(OUTAGE.plusSeconds(10)).pollInterval(Duration.ofSeconds(1))
                .until(() -> effects() == 10 && deadLetters(queue).isEmpty());
        assertThat(counter("gateway.inbox.database.unreachable", consumer)).as("it kept trying").isPositive();
        proxy().start();

        Awaitility.await().atMost(Duration.ofSeconds(60))
                .until(() -> counter("gateway.inbox.applied", consumer) == 51.0);
        assertThat(effects()).isEqualTo(51);
        for (EventEnvelope e : during) {
            assertThat(effects(e.id())).as(e.id()).isEqualTo(1);
        }
        assertThat(effects(cut.id())).as("the event whose commit was cut").isEqualTo(1);
        assertThat(deadLetters(queue)).isEmpty();
        assertThat(counter("gateway.inbox.rollbacks", consumer)).as("no delivery attempt used").isZero();
        assertThat(counter("gateway.inbox.applied", consumer)).isEqualTo(51.0);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> count(queue) == 0);
    }

    private static List<EventEnvelope> events(int n) {
        List<EventEnvelope> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(orderCreated(i % 2 == 0 ? "alice" : "bob", "1"));
        }
        return list;
    }
}
