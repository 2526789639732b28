package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.TcpProxy;
import jakarta.jms.ConnectionFactory;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Failure (issue 9, item 1b): the route got a session of its own per message (camel-jms
 * {@code exposeListenerSession=false}), so a dead letter's copy committed on that session before, and apart from, the
 * acknowledgement on the listener's: a halt in between left the copy on the DLQ and the message on the queue, and its
 * redelivery added a second copy.
 *
 * <p>The window, opened deterministically: the delivery of a message of an unaccepted type has sent its copy and waits
 * just before the listener's session commits ({@link io.legacygateway.testsupport.InboxFaults#pauseBeforeAcknowledgeOnce}).
 * The gateway reaches the standalone broker through a TCP proxy; stopping it cuts every connection of the gateway at
 * once, which is what the broker sees when the gateway process halts (kill -9): it rolls back the open transactions of
 * those connections. Expected: before the halt the copy is not visible on the DLQ; after it (and the "restart": the
 * proxy listens again, the listener reconnects) the message is redelivered and dead-lettered once: exactly one copy on
 * the DLQ, none left on the queue. The window is the broker's, so one inbox database (PostgreSQL) suffices.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnPostgres(dataSource = "target")
class HaltAfterDeadLetterCopyBeforeAckTest extends InboxTestSupport {

    private static final TcpProxy BROKER_PROXY =
            new TcpProxy("127.0.0.1", StandaloneArtemis.shared().port()).start();

    @DynamicPropertySource
    static void targetDatabaseAndBrokerThroughProxy(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "4");
        StandaloneBroker.register(registry, () -> "tcp://127.0.0.1:" + BROKER_PROXY.port());
    }

    @Override
    protected ConnectionFactory brokerConnectionFactory() {
        // the test's own view of the broker: direct, never through the proxy it cuts
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    /** The broker's message count: delivered but unacknowledged messages included (a browser skips them). */
    private int onQueue(String queue) {
        return new QueueProbe(brokerConnectionFactory()).count(queue);
    }

    @AfterEach
    void proxyListens() {
        BROKER_PROXY.start();
    }

    @Test
    void aHaltAfterTheCopyWasSentBeforeTheCommitLeavesNeitherCopyNorAcknowledgementAndTheRedeliveryCopiesOnce()
            throws Exception {
        String queue = unique("it.dlq-halt");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        EventEnvelope unknown = event("OrderShipped", "order-1", "alice", "1", null);
        CountDownLatch reached = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        faults.pauseBeforeAcknowledgeOnce(unknown.id(), reached, release);
        send(queue, unknown);

        assertThat(reached.await(30, TimeUnit.SECONDS)).as("the copy was sent, the commit not yet done").isTrue();
        assertThat(deadLetters(queue)).as("the copy is not visible before the commit").isEmpty();
        assertThat(onQueue(queue)).as("the message is still on its queue, unacknowledged").isEqualTo(1);

        BROKER_PROXY.stop();
        release.countDown();
        Awaitility.await("the broker rolled the halted gateway's transaction back").atMost(Duration.ofSeconds(30))
                .until(() -> onQueue(queue) == 1 && deadLetters(queue).isEmpty()
                        && counter("gateway.inbox.rollbacks", consumer) == 1.0);
        BROKER_PROXY.start();

        Awaitility.await("redelivered after the restart and dead-lettered").atMost(Duration.ofSeconds(60))
                .until(() -> deadLetters(queue).size() == 1 && onQueue(queue) == 0);
        assertThat(deadLetters(queue)).as("exactly one copy").singleElement()
                .satisfies(m -> {
                    assertThat(property(m, "ce_id")).isEqualTo(unknown.id());
                    assertThat(property(m, DeadLetterWriter.REASON_CLASS))
                            .isEqualTo(DeadLetterReason.UNKNOWN_TYPE.name());
                });
        assertThat(onQueue(queue)).as("none left on the queue").isZero();
        assertThat(effects(unknown.id())).isZero();
    }
}
