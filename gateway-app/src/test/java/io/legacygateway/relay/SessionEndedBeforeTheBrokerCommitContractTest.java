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
 * charges no row, and the next cycle publishes each row once.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class SessionEndedBeforeTheBrokerCommitContractTest extends RelayTestSupport {

    /** The id of the session of {@code session}'s connection. */
    protected abstract Object sessionId(JdbcTemplate session);

    /** Ends a session from another one, as an operator would. */
    protected abstract void endSession(JdbcTemplate other, Object sessionId);

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
