package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EventEnvelope;
import jakarta.jms.Message;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A message whose effect the database refuses for its data (SQLSTATE class 22/23: a value longer than its column, a
 * NUL character in PostgreSQL text) fails the same way on every delivery: it is dead-lettered on its first delivery
 * with the database's reason, and the other messages of its batch are applied once and acknowledged with it, their
 * delivery count unchanged (no rollback of the JMS session). Before, it was taken for a transient failure: the batch
 * rolled back (+1 delivery for each of its messages) and the message was retried with the broker's delays while later
 * messages of its aggregate overtook it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class InboxDataErrorIsDeadLetteredAtOnceTest extends InboxTestSupport {

    @DynamicPropertySource
    static void targetPool(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }

    /** Customer ids the effect's {@code customer_id VARCHAR(64)} column refuses on this database. */
    protected List<String> refusedCustomers() {
        return List.of("c".repeat(65));
    }

    @Test
    void aMessageWhoseDataTheDatabaseRefusesIsDeadLetteredAndTheRestOfItsBatchCommits() throws Exception {
        String queue = unique("it.data");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("maxDeliveryAttempts", "2"));
        List<EventEnvelope> good = new ArrayList<>();
        List<EventEnvelope> all = new ArrayList<>();
        for (String refused : refusedCustomers()) {
            EventEnvelope g = orderCreated("alice", "1");
            good.add(g);
            all.add(g);
            all.add(orderCreated(refused, "2"));
        }
        EventEnvelope last = orderCreated("bob", "3");
        good.add(last);
        all.add(last);
        send(queue, all.toArray(EventEnvelope[]::new));

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> deadLetters(queue).size()
                == refusedCustomers().size() && count(queue) == 0);
        for (Message dead : deadLetters(queue)) {
            assertThat(property(dead, DeadLetterWriter.REASON_CLASS)).isEqualTo("DATA_REFUSED");
            assertThat(property(dead, DeadLetterWriter.REASON)).startsWith("the database refused the effect's data"
                    + " (SQLSTATE 22");
            assertThat(dead.getIntProperty(DeadLetterWriter.DELIVERY_COUNT)).as("on its first delivery").isEqualTo(1);
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> effects() == good.size());
        for (EventEnvelope g : good) {
            assertThat(effects(g.id())).isEqualTo(1);
            assertThat(faults.outcomes(g.id())).as("applied once, never redelivered")
                    .containsExactly(InboxOutcome.APPLIED);
        }
        assertThat(inboxRows(consumer)).isEqualTo(good.size());
        assertThat(counter("gateway.inbox.rollbacks", consumer)).as("no JMS rollback").isZero();
        assertThat(counter("gateway.inbox.applied", consumer)).isEqualTo(good.size());
    }
}
