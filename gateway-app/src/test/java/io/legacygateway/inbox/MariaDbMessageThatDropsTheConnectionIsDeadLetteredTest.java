package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.OnMariaDb;
import jakarta.jms.Message;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A message whose effect binds a value larger than MariaDB's {@code max_allowed_packet} (16 MiB here): the server
 * closes the connection on every try, which looks like "database unreachable". A new connection works meanwhile, so it
 * is no outage: after {@value FailureDecisions#MAX_CONNECTION_LOSSES} losses in a row its batch is halved until the
 * message is alone, and it is dead-lettered with the reason; the other messages of its batch are applied once, their
 * delivery count unchanged. Before, the batch was retried in-process for ever (readiness UP, nothing applied).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnMariaDb(dataSource = "target")
class MariaDbMessageThatDropsTheConnectionIsDeadLetteredTest extends InboxTestSupport {

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }

    @Test
    void aMessageThatDropsTheConnectionIsDeadLetteredAndTheRestOfItsBatchCommits() throws Exception {
        Integer packet = target.queryForObject("SELECT @@max_allowed_packet", Integer.class);
        String queue = unique("it.drop");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("maxPayloadBytes", Integer.toString(64 * 1024 * 1024)));
        EventEnvelope before = orderCreated("alice", "1");
        EventEnvelope dropping = orderCreated("x".repeat(packet + 1024), "2");
        EventEnvelope after = orderCreated("bob", "3");
        send(queue, before, dropping, after);

        Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> deadLetters(queue).size() == 1 && count(queue) == 0);
        Message dead = deadLetters(queue).get(0);
        assertThat(property(dead, "ce_id")).isEqualTo(dropping.id());
        assertThat(property(dead, DeadLetterWriter.REASON_CLASS)).isEqualTo("DROPS_CONNECTION");
        assertThat(property(dead, DeadLetterWriter.REASON)).startsWith("applying it lost the database connection 3"
                + " times in a row while new connections worked");
        assertThat(dead.getIntProperty(DeadLetterWriter.DELIVERY_COUNT)).isEqualTo(1);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> effects() == 2);
        for (EventEnvelope e : new EventEnvelope[] {before, after}) {
            assertThat(effects(e.id())).isEqualTo(1);
            assertThat(faults.outcomes(e.id())).as("applied once, never redelivered")
                    .containsExactly(InboxOutcome.APPLIED);
        }
        assertThat(effects(dropping.id())).isZero();
        assertThat(inboxRows(consumer)).isEqualTo(2);
        assertThat(counter("gateway.inbox.rollbacks", consumer)).as("no JMS rollback").isZero();
    }
}
