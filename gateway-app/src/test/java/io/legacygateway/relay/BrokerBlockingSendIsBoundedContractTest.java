package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.QueueProbe;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressFullMessagePolicy;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * A broker that stops taking messages without refusing them (an address full with {@code address-full-policy BLOCK};
 * a full disk does the same) leaves the relay's send waiting for the broker's credits, and before, it waited without
 * end inside the cycle's open database transaction, its row locks held. Now the wait ends after {@code publishTimeout}:
 * the connection is closed, the cycle rolls back as an outage (no row charged, counted), and once the address has
 * room the rows are published in order. Real database (subclasses), embedded broker with a 10 KiB address of policy
 * BLOCK made full by a message the test sends and later consumes.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class BrokerBlockingSendIsBoundedContractTest extends RelayTestSupport {

    @Autowired
    EmbeddedActiveMQ embedded;
    @Autowired
    MeterRegistry meters;

    private void fillBlocking(String queue) throws JMSException {
        embedded.getActiveMQServer().getAddressSettingsRepository().addMatch(queue, new AddressSettings()
                .setMaxSizeBytes(10 * 1024).setAddressFullMessagePolicy(AddressFullMessagePolicy.BLOCK));
        Connection c = connectionFactory.createConnection();
        try (Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            s.createProducer(s.createQueue(queue))
                    .send(s.createTextMessage("f".repeat(40 * 1024)), DeliveryMode.PERSISTENT, 4, 0);
        } finally {
            c.close();
        }
    }

    private int retryCount(String eventId) {
        return rows.jdbc().queryForObject("SELECT retry_count FROM outbox WHERE id = ?", Integer.class, eventId);
    }

    @Test
    void aSendTheBrokerBlocksEndsAfterPublishTimeoutAsAnOutage() throws Exception {
        String queue = unique("it.blocking");
        fillBlocking(queue);
        OutboxRelay relay = relay(unique("blocking"), "queue:" + queue, Map.of("publishTimeout", "2s"));
        List<String> ids = rows.insertSequence("order-b", 3);

        long started = System.nanoTime();
        int published = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> drain(relay),
                "the relay's send waits for the blocked address without end");
        assertThat(published).isZero();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("bounded by publishTimeout")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(2)).isLessThan(Duration.ofSeconds(30));
        assertThat(meters.counter("gateway.outbox.publish.failures", "relay", relay.name()).count())
                .as("counted as an outage").isEqualTo(1.0);
        for (String id : ids) {
            assertThat(rows.status(id)).isEqualTo("PENDING");
            assertThat(retryCount(id)).as("no row charged").isZero();
        }

        List<TextMessage> filler = broker.drain(queue);
        assertThat(filler).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID)).containsExactly((String) null);
        assertThat(assertTimeoutPreemptively(Duration.ofSeconds(60), () -> drain(relay))).isEqualTo(3);
        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .containsExactlyElementsOf(ids);
    }
}
