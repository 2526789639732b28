package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import jakarta.jms.ConnectionFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.activemq.artemis.api.core.management.ResourceNames;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Failure (issue 9, item 1b): with camel-jms {@code exposeListenerSession=false} the listener container opened and
 * closed a connection (and session) around every message for the route, about one broker connection per delivery.
 * The route now works on the listener's own cached session. Counted by the broker itself (management
 * {@code totalConnectionCount}, every connection ever accepted): 1,000 deliveries on two sessions may add the
 * test's own few connections (the send, the management queries) and the consumers' reconnections, nothing per message.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnPostgres(dataSource = "target")
class DeliveriesOpenNoConnectionEachTest extends InboxTestSupport {

    static final int SESSIONS = 2;
    static final int DELIVERIES = 1000;
    /** The test's send and management queries, the gateway's occasional own (dead-letter depth, settings). */
    static final int SMALL_CONSTANT = 10;

    @DynamicPropertySource
    static void targetDatabaseAndBroker(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "4");
        StandaloneBroker.register(registry);
    }

    @Override
    protected ConnectionFactory brokerConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @Test
    void aThousandDeliveriesOpenAboutNoBrokerConnection() {
        String queue = unique("it.connections");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("concurrentConsumers", Integer.toString(SESSIONS)));
        send(queue, orderCreated("carol", "1"));
        Awaitility.await("the consumers are connected and working").atMost(Duration.ofSeconds(30))
                .until(() -> counter("gateway.inbox.applied", consumer) == 1.0);
        QueueProbe broker = new QueueProbe(brokerConnectionFactory());
        long before = broker.attribute(ResourceNames.BROKER, "totalConnectionCount");

        List<EventEnvelope> events = new ArrayList<>();
        for (int i = 0; i < DELIVERIES; i++) {
            events.add(orderCreated(i % 2 == 0 ? "alice" : "bob", "1"));
        }
        send(queue, events.toArray(EventEnvelope[]::new));
        Awaitility.await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> counter("gateway.inbox.applied", consumer) == DELIVERIES + 1.0);
        long opened = broker.attribute(ResourceNames.BROKER, "totalConnectionCount") - before;

        assertThat(effects()).isEqualTo(DELIVERIES + 1);
        assertThat(opened).as("broker connections opened during %d deliveries", DELIVERIES)
                .isLessThanOrEqualTo(SESSIONS + SMALL_CONSTANT);
    }
}
