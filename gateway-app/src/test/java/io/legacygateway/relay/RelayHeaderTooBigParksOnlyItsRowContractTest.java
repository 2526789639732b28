package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.broker.BrokerConnections;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.QueueProbe;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.util.List;
import java.util.Map;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * A row whose values would make a message header the broker client refuses (Artemis AMQ219022 "Header size ... is too
 * big", a {@code jakarta.jms.IllegalStateException}) fails on its own: it is charged and parked with its reason while
 * the other rows, of its aggregate after it and of other aggregates, are published. Before, the relay took that
 * exception for a lost connection: the cycle rolled back, the same head rows were claimed again, for ever, and no
 * aggregate moved.
 *
 * <p>The broker client of this test sends as a large message any message of 2 KiB or more, and the header of a large
 * message must fit in that size: so a header within the relay's own bound ({@link OutboxEventMapper#MAX_HEADER_LENGTH})
 * can still be refused by the client, which the second case shows. Real database (subclasses), embedded broker.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@Import(RelayHeaderTooBigParksOnlyItsRowContractTest.SmallLargeMessages.class)
abstract class RelayHeaderTooBigParksOnlyItsRowContractTest extends RelayTestSupport {

    static final int MIN_LARGE_MESSAGE_SIZE = 2048;

    @TestConfiguration
    static class SmallLargeMessages {
        /**
         * Before the factory is first used (it is read-only after): messages of 2 KiB and more are large. The relays'
         * producer window is set here as {@link BrokerConnections#publishingFactory} would set it; the relays publish
         * with a copy watched for failovers, which carries these settings.
         */
        @Bean
        static BeanPostProcessor smallLargeMessages() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String name) {
                    if (bean instanceof ConnectionFactory cf
                            && BrokerConnections.nativeFactory(cf) instanceof ActiveMQConnectionFactory artemis) {
                        artemis.setMinLargeMessageSize(MIN_LARGE_MESSAGE_SIZE);
                        artemis.setProducerWindowSize(BrokerConnections.PUBLISHER_WINDOW_BYTES);
                    }
                    return bean;
                }
            };
        }
    }

    @Autowired
    MeterRegistry meters;

    /** Makes the correlation id column hold more than the default table's 255 characters, as a legacy table may. */
    protected abstract String widenCorrelationIdColumn();

    private double counter(String name, OutboxRelay relay) {
        return meters.counter(name, "relay", relay.name()).count();
    }

    private List<String> ids(String queue) {
        return broker.drain(queue).stream().map(m -> QueueProbe.property(m, EnvelopeMessages.ID)).toList();
    }

    private String lastError(String eventId) {
        return rows.jdbc().queryForObject("SELECT last_error FROM outbox WHERE id = ?", String.class, eventId);
    }

    private static String payloadOf(int chars) {
        return "{\"blob\":\"" + "x".repeat(chars) + "\"}";
    }

    @Test
    void aHeaderValueBeyondTheRelaysBoundParksItsRowAndTheOthersArePublished() {
        rows.jdbc().execute(widenCorrelationIdColumn());
        String queue = unique("it.header-bound");
        OutboxRelay relay = relay(unique("header-bound"), "queue:" + queue, Map.of("maxAttempts", "1"));
        String b1 = rows.insert("order-b", "OrderCreated", "{\"n\":1}");
        String big = rows.insert("order-a", "OrderCreated", payloadOf(110 * 1024));
        rows.jdbc().update("UPDATE outbox SET correlation_id = ? WHERE id = ?", "c".repeat(51_200), big);
        String a2 = rows.insert("order-a", "OrderPaid", "{\"n\":2}");
        String b2 = rows.insert("order-b", "OrderPaid", "{\"n\":2}");

        assertThat(drain(relay)).as("every row but the one with the oversized header").isEqualTo(3);
        assertThat(rows.status(big)).isEqualTo("FAILED");
        assertThat(lastError(big)).isEqualTo("correlationId: 51200 characters, more than the "
                + OutboxEventMapper.MAX_HEADER_LENGTH + " a message header may carry");
        assertThat(ids(queue)).containsExactly(b1, a2, b2);
        assertThat(counter("gateway.outbox.parked", relay)).isEqualTo(1.0);
        assertThat(counter("gateway.outbox.publish.failures", relay)).as("not an outage").isZero();
    }

    @Test
    void aHeaderTheBrokerClientRefusesIsThatRowsFailureNotAnOutage() {
        String queue = unique("it.header-client");
        OutboxRelay relay = relay(unique("header-client"), "queue:" + queue, Map.of("maxAttempts", "2",
                "retryBackoff", "1h", "maxRetryBackoff", "1h"));
        String b1 = rows.insert("order-b", "OrderCreated", "{\"n\":1}");
        // each value within the default table's 255 characters and the relay's bound; together, with a body of large
        // message size, a header of more than 2 KiB: the client refuses it (AMQ219022)
        String big = rows.insert("order-a-" + "a".repeat(240), "OrderCreated" + "t".repeat(240), payloadOf(4096));
        rows.jdbc().update("UPDATE outbox SET correlation_id = ?, aggregate_type = ? WHERE id = ?", "c".repeat(255),
                "Order" + "o".repeat(250), big);
        String b2 = rows.insert("order-b", "OrderPaid", "{\"n\":2}");

        assertThat(drain(relay)).as("the other aggregate's rows").isEqualTo(2);
        assertThat(rows.status(big)).isEqualTo("PENDING");
        assertThat(rows.jdbc().queryForObject("SELECT retry_count FROM outbox WHERE id = ?", Integer.class, big))
                .as("charged to the row").isEqualTo(1);
        assertThat(lastError(big)).startsWith("refused by the broker: AMQ219022");
        assertThat(ids(queue)).containsExactly(b1, b2);
        assertThat(counter("gateway.outbox.refused", relay)).isEqualTo(1.0);
        assertThat(counter("gateway.outbox.publish.failures", relay)).as("not an outage").isZero();
    }
}
