package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.QueueProbe;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.List;
import java.util.Map;
import org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * An address that is full, with address-full policy {@code FAIL}, is the broker's state, not the rows': when the broker
 * refuses the whole batch for it, the cycle is an outage (no row charged an attempt, the relay backs off, the outage
 * metric counts it); when it takes the batch's other events, the full address's events wait uncharged, their
 * aggregates behind them. Before, each refusal was charged to its row: after {@code maxAttempts} every waiting row was
 * FAILED, and with {@code failedRowPolicy CONTINUE} the later rows of their aggregates went first.
 *
 * <p>Real database (subclasses), embedded broker given a small {@code max-size-bytes} with policy {@code FAIL} at runtime
 * for the test's address, made full by one message the test sends and later consumes.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class AddressFullIsAnOutageNotEachRowsFailureContractTest extends RelayTestSupport {

    @Autowired
    EmbeddedActiveMQ embedded;
    @Autowired
    MeterRegistry meters;

    /** The address takes 10 KiB, with policy FAIL; a 40 KiB message fills it. */
    private void fill(String queue) throws JMSException {
        embedded.getActiveMQServer().getAddressSettingsRepository().addMatch(queue, new AddressSettings()
                .setMaxSizeBytes(10 * 1024).setAddressFullMessagePolicy(AddressFullMessagePolicy.FAIL));
        Connection c = connectionFactory.createConnection();
        try (Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.send(s.createTextMessage("f".repeat(40 * 1024)), DeliveryMode.PERSISTENT, 4, 0);
        } finally {
            c.close();
        }
    }

    /** The consumers catch up: the filler is taken off the queue, the address has room again. */
    private void makeRoom(String queue) {
        List<TextMessage> filler = broker.drain(queue);
        assertThat(filler).hasSize(1);
        assertThat(QueueProbe.property(filler.get(0), EnvelopeMessages.ID)).isNull();
    }

    private double counter(String name, OutboxRelay relay) {
        return meters.counter(name, "relay", relay.name()).count();
    }

    private int retryCount(String eventId) {
        return rows.jdbc().queryForObject("SELECT retry_count FROM outbox WHERE id = ?", Integer.class, eventId);
    }

    private List<String> ids(String queue) {
        return broker.drain(queue).stream().map(m -> QueueProbe.property(m, EnvelopeMessages.ID)).toList();
    }

    @Test
    void aFullAddressThatRefusesTheWholeBatchIsAnOutageAndNoRowIsCharged() throws Exception {
        String queue = unique("it.full");
        fill(queue);
        OutboxRelay relay = relay(unique("full"), "queue:" + queue, Map.of("maxAttempts", "1"));
        String a1 = rows.insert("order-a", "OrderCreated", "{\"n\":1}");
        String a2 = rows.insert("order-a", "OrderPaid", "{\"n\":2}");
        String b1 = rows.insert("order-b", "OrderCreated", "{\"n\":1}");

        assertThat(drain(relay)).isZero();
        for (String id : List.of(a1, a2, b1)) {
            assertThat(rows.status(id)).as("maxAttempts 1, yet not parked").isEqualTo("PENDING");
            assertThat(retryCount(id)).as("the broker's state is not the row's failure").isZero();
        }
        assertThat(counter("gateway.outbox.publish.failures", relay)).as("counted as an outage").isEqualTo(1.0);
        assertThat(counter("gateway.outbox.refused", relay)).isZero();

        makeRoom(queue);
        assertThat(drain(relay)).isEqualTo(3);
        assertThat(ids(queue)).containsExactly(a1, a2, b1);
    }

    @Test
    void aFullAddressAmongAcceptedOnesHoldsItsEventsUnchargedAndTheirAggregatesWait() throws Exception {
        String prefix = unique("it.full-mixed");
        fill(prefix + ".Full");
        OutboxRelay relay = relay(unique("full-mixed"), "queue:" + prefix + ".{eventType}",
                Map.of("maxAttempts", "1"));
        String a1 = rows.insert("order-a", "Full", "{\"n\":1}");
        String a2 = rows.insert("order-a", "Accepted", "{\"n\":2}");
        String b1 = rows.insert("order-b", "Accepted", "{\"n\":1}");
        String c1 = rows.insert("order-c", "Full", "{\"n\":1}");

        assertThat(drain(relay)).as("only order-b: order-a's second row waits behind its first").isEqualTo(1);
        for (String id : List.of(a1, a2, c1)) {
            assertThat(rows.status(id)).isEqualTo("PENDING");
            assertThat(retryCount(id)).isZero();
        }
        assertThat(counter("gateway.outbox.refused", relay)).isZero();
        assertThat(counter("gateway.outbox.parked", relay)).isZero();

        makeRoom(prefix + ".Full");
        assertThat(drain(relay)).isEqualTo(3);
        assertThat(ids(prefix + ".Full")).containsExactly(a1, c1);
        assertThat(ids(prefix + ".Accepted")).as("order-a's second row after its first").containsExactly(b1, a2);
    }
}
