package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EventEnvelope;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Failure window: the delivery fails after the inbox row and the effect were written, before the database commit.
 * Nothing of it may remain (the inbox row rolls back with the effect, so the redelivery is not mistaken for a
 * duplicate), and the redelivery applies the effect once. The second delivery looks, from another connection and
 * just before its own commit, at what the first one left behind: nothing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class FailureBeforeDbCommitTest extends InboxTestSupport {

    @DynamicPropertySource
    static void targetPool(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }

    @Test
    void aFailureBeforeTheDatabaseCommitLeavesNothingAndTheRedeliveryAppliesTheEffectOnce() {
        String queue = unique("it.before-commit");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        EventEnvelope e = orderCreated("alice", "10");
        faults.failBeforeDatabaseCommitOnce(e.id());
        List<Integer> leftBehind = new CopyOnWriteArrayList<>();
        faults.probeBeforeDatabaseCommit(e.id(), env -> {
            leftBehind.add(countOnOwnConnection("SELECT COUNT(*) FROM effect_log WHERE message_id = ?", e.id()));
            leftBehind.add(countOnOwnConnection("SELECT COUNT(*) FROM inbox WHERE message_id = ?", e.id()));
        });
        send(queue, e);

        // the outcome is recorded after the commit, just before the ack: wait for it, not for the effect
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> faults.outcomes(e.id()).size() == 1);
        assertThat(effects(e.id())).isEqualTo(1);
        assertThat(faults.attempts(e.id())).as("first delivery failed, second applied").isEqualTo(2);
        assertThat(leftBehind).as("effect rows and inbox rows committed by the failed delivery").containsExactly(0, 0);
        assertThat(faults.outcomes(e.id())).containsExactly(InboxOutcome.APPLIED);
        assertThat(inboxRows(consumer)).isEqualTo(1);
        assertThat(counter("gateway.inbox.rollbacks", consumer)).isEqualTo(1.0);
        assertThat(counter("gateway.inbox.duplicates", consumer)).isZero();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> count(queue) == 0);
        assertThat(deadLetters(queue)).isEmpty();
    }
}
