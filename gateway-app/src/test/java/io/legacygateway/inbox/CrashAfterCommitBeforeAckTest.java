package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import jakarta.jms.ConnectionFactory;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Failure window: the inbox transaction (inbox row + effect) committed, then the delivery failed before the JMS
 * session committed, so the broker never got the acknowledgement. The broker redelivers the message; the inbox finds
 * its row and skips the effect. Effect exactly once, and nothing on the dead-letter queue. A message received in the
 * same batch goes back with it, and is skipped the same way.
 *
 * <p>The window is opened by a hook after the database commit: once as a failure there (the listener rolls the JMS
 * session back, as a process dying there would leave the message unacknowledged), once by killing the standalone
 * broker (kill -9) while the delivery waits there, so that the acknowledgement has nowhere to go.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class CrashAfterCommitBeforeAckTest extends InboxTestSupport {

    @DynamicPropertySource
    static void targetPoolAndBroker(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
        StandaloneBroker.register(registry);
    }

    @Override
    protected ConnectionFactory brokerConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @Test
    void aFailureAfterTheDatabaseCommitBeforeTheAckRedeliversAndTheInboxSkipsTheCopy() {
        String queue = unique("it.crash-ack");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        EventEnvelope e = orderCreated("alice", "10");
        EventEnvelope other = orderCreated("bob", "1");
        faults.crashAfterCommitBeforeAckOnce(e.id());
        send(queue, e, other);

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> faults.outcomes(e.id()).size() == 2);
        assertThat(faults.outcomes(e.id())).containsExactly(InboxOutcome.APPLIED, InboxOutcome.DUPLICATE);
        // in one batch, the rollback returned the other message too: it comes back once, as a duplicate
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> counter("gateway.inbox.duplicates", consumer)
                == (perSession() == 1 ? 1.0 : 2.0));
        // (in the batch, the failure after the commit came before the other's outcome was observed)
        assertThat(faults.outcomes(other.id()))
                .containsExactly(perSession() == 1 ? InboxOutcome.APPLIED : InboxOutcome.DUPLICATE);
        assertThat(effects(e.id())).as("effect exactly once").isEqualTo(1);
        assertThat(effects(other.id())).isEqualTo(1);
        assertThat(inboxRows(consumer)).isEqualTo(2);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> count(queue) == 0);
        assertThat(deadLetters(queue)).isEmpty();
    }

    @Test
    void theBrokerDyingAfterTheDatabaseCommitRedeliversAfterItsRestartAndTheInboxSkipsTheCopy() throws Exception {
        String queue = unique("it.crash-broker");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        EventEnvelope e = orderCreated("carol", "4");
        CountDownLatch inWindow = new CountDownLatch(1);
        CountDownLatch brokerRestarted = new CountDownLatch(1);
        faults.pauseAfterCommitBeforeAckOnce(e.id(), inWindow, brokerRestarted);
        send(queue, e);

        assertThat(inWindow.await(30, TimeUnit.SECONDS)).as("delivery reached the window").isTrue();
        assertThat(effects(e.id())).as("committed before the ack").isEqualTo(1);
        StandaloneArtemis broker = StandaloneArtemis.shared();
        broker.kill();
        broker.start();
        brokerRestarted.countDown();

        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> faults.outcomes(e.id()).size() == 2);
        assertThat(faults.outcomes(e.id())).containsExactly(InboxOutcome.APPLIED, InboxOutcome.DUPLICATE);
        assertThat(effects(e.id())).as("effect exactly once").isEqualTo(1);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> count(queue) == 0);
        assertThat(deadLetters(queue)).isEmpty();
    }
}
