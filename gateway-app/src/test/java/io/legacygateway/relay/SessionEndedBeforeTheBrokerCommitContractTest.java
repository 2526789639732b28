package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.QueueProbe;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

/**
 * The fence before the broker's commit ({@code OutboxSource#proveClaim}): a cycle whose database session is ended after
 * its batch was sent and before the broker commits it (an operator's {@code pg_terminate_backend} / {@code KILL
 * CONNECTION}, or the database's claim lease running out while the gateway was frozen) commits nothing on the broker,
 * charges no row, and the next cycle publishes each row once. Also when the batch is sent one message at a time (the
 * broker refused it whole): the fence runs before each message's commit, and no message is committed after the
 * session was ended.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class SessionEndedBeforeTheBrokerCommitContractTest extends RelayTestSupport {

    /** The id of the session of {@code session}'s connection. */
    protected abstract Object sessionId(JdbcTemplate session);

    /** Ends a session from another one, as an operator would. */
    protected abstract void endSession(JdbcTemplate other, Object sessionId);

    @Test
    void aBatchSentOneMessageAtATimeCommitsNoMessageAfterItsSessionWasEnded() {
        String queue = unique("it.fence.one");
        OutboxRelay relay = relay(unique("fence-one"), "queue:" + queue, Map.of());
        String first = rows.insert("order-1", "OrderCreated", "{\"n\":1}");
        assertThat(drain(relay)).isEqualTo(1);
        // an operator's retry of the published row: the next batch holds an event the broker has, so the broker refuses
        // it whole and it is sent again one message at a time, each in a broker transaction of its own
        rows.jdbc().update("UPDATE outbox SET status = 'PENDING' WHERE id = ?", first);
        List<String> next = List.of(rows.insert("order-2", "OrderCreated", "{\"n\":2}"),
                rows.insert("order-3", "OrderCreated", "{\"n\":3}"),
                rows.insert("order-4", "OrderCreated", "{\"n\":4}"));
        // the cycle's fences: 1 the batch's, 2 before it goes one at a time, 3 the first message's, 4 the second's
        DataSource legacy = dataSources.get("legacy", "test");
        faults.atBrokerCommit(relay.name(), 4, () -> {
            Object session = sessionId(new JdbcTemplate(legacy));
            CompletableFuture.runAsync(() -> endSession(rows.jdbc(), session)).join();
        });

        assertThat(drain(relay)).as("published by the cycle whose session was ended").isZero();
        assertThat(broker.count(queue)).as("the first event (its copy dropped as a duplicate), not the second")
                .isEqualTo(1);
        assertThat(rows.count("PENDING")).isEqualTo(4);
        assertThat(rows.charged()).as("rows charged an attempt").isZero();

        assertThat(drain(relay)).as("the next cycle").isEqualTo(4);
        List<String> all = new java.util.ArrayList<>(List.of(first));
        all.addAll(next);
        assertThat(broker.drain(queue).stream().map(m -> QueueProbe.property(m, EnvelopeMessages.ID)))
                .as("each once, in order").containsExactlyElementsOf(all);
    }

    @Test
    void aCycleWhoseSessionWasEndedBeforeTheBrokerCommitPublishesNothingAndChargesNoRow() {
        String queue = unique("it.fence");
        List<String> ids = List.of(rows.insert("order-1", "OrderCreated", "{\"n\":1}"),
                rows.insert("order-2", "OrderCreated", "{\"n\":2}"),
                rows.insert("order-1", "OrderChanged", "{\"n\":3}"));
        OutboxRelay relay = relay(unique("fence"), "queue:" + queue, Map.of());
        DataSource legacy = dataSources.get("legacy", "test");
        faults.atBrokerCommit(relay.name(), 1, () -> {
            // on the relay's thread, in its cycle: the cycle's own connection
            Object session = sessionId(new JdbcTemplate(legacy));
            CompletableFuture.runAsync(() -> endSession(rows.jdbc(), session)).join();
        });

        assertThat(drain(relay)).as("published by the cycle whose session was ended").isZero();
        assertThat(broker.count(queue)).as("on the queue").isZero();
        assertThat(rows.count("PENDING")).isEqualTo(3);
        assertThat(rows.charged()).as("rows charged an attempt").isZero();

        assertThat(drain(relay)).as("the next cycle").isEqualTo(3);
        assertThat(broker.drain(queue).stream().map(m -> QueueProbe.property(m, EnvelopeMessages.ID)))
                .as("each once, in order").containsExactlyElementsOf(ids);
        assertThat(rows.count("PUBLISHED")).isEqualTo(3);
    }
}
