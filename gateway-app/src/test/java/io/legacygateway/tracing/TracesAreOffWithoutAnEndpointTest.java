package io.legacygateway.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.OutboxRows;
import io.legacygateway.testsupport.QueueProbe;
import io.micrometer.tracing.Span;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * Without {@code management.otlp.tracing.endpoint} (the default) the gateway makes no spans: its tracing is the no-op
 * one, and a published message carries no {@code traceparent} property, even for a row with a traceparent of its own
 * (which the envelope keeps).
 */
@OnPostgres
// span export as in a deployment (Boot's tests turn it off unless asked): only the endpoint is missing
@AutoConfigureObservability(metrics = false)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class TracesAreOffWithoutAnEndpointTest {

    @Autowired
    GatewayTracing tracing;
    @Autowired
    OutboxRelayFactory relays;
    @Autowired
    GatewayDataSources dataSources;
    @Autowired
    ConnectionFactory connectionFactory;

    @Test
    void theRelayPublishesWithoutATraceparentPropertyAndMakesNoSpan() throws Exception {
        assertThat(tracing).isSameAs(GatewayTracing.OFF);
        assertThat(tracing.on()).isFalse();
        assertThat(tracing.cycle("r", 1, 1, Instant.now())).isSameAs(Span.NOOP);
        assertThat(tracing.apply("c", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", null, "e", "T"))
                .isSameAs(Span.NOOP);

        OutboxRows rows = new OutboxRows(dataSources.get("legacy", "test"));
        rows.clear();
        String event = rows.insert("order-1", "OrderCreated", "{\"orderId\":\"order-1\"}");
        String traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        rows.jdbc().update("UPDATE outbox SET trace_id = ? WHERE id = ?", traceparent, event);
        String queue = "it.untraced-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> p = new HashMap<>();
        p.put("relay", "untraced");
        p.put("dataSource", "legacy");
        p.put("table", "outbox");
        p.put("destination", "queue:" + queue);
        p.put("payloadFormat", "JSON");
        p.put("pendingStatus", "PENDING");
        p.put("publishedStatus", "PUBLISHED");
        p.put("failedStatus", "FAILED");
        assertThat(relays.create(p).drain(() -> false)).isEqualTo(1);

        List<Message> sent = new QueueProbe(nativeFactory(connectionFactory)).browse(queue);
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0).propertyExists(EnvelopeMessages.TRACEPARENT)).isFalse();
        assertThat(((jakarta.jms.TextMessage) sent.get(0)).getText()).as("the envelope keeps the row's")
                .contains("\"traceparent\":\"" + traceparent + "\"");
    }

    /** Artemis's own factory under Spring's caching wrapper: the probe needs Artemis's sessions. */
    private static ConnectionFactory nativeFactory(ConnectionFactory cf) {
        while (cf instanceof org.springframework.jms.connection.SingleConnectionFactory s
                && s.getTargetConnectionFactory() != null) {
            cf = s.getTargetConnectionFactory();
        }
        return cf;
    }
}
