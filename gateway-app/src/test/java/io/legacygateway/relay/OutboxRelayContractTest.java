package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EnvelopeVersion;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.QueueProbe;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.DeliveryMode;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * What the relay guarantees on every database, written once; each real database runs it through a small subclass.
 * Broker: the embedded Artemis, configured from artemis-config/broker.xml.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class OutboxRelayContractTest extends RelayTestSupport {

    private final EnvelopeCodec codec = new EnvelopeCodec();

    @Autowired
    MeterRegistry meters;

    @Test
    void publishesEachPendingRowOnceAsACloudEventAndMarksItPublished() throws Exception {
        String queue = unique("it.contract");
        String a = rows.insert("order-1", "OrderCreated", "{\"orderId\":\"order-1\",\"amount\":12.5}");
        String b = rows.insert("order-2", "OrderCreated", "{\"orderId\":\"order-2\",\"amount\":7}");
        String c = rows.insert("order-1", "OrderPaid", "{\"orderId\":\"order-1\"}");
        OutboxRelay relay = relay(unique("contract"), "queue:" + queue, Map.of());

        assertThat(drain(relay)).isEqualTo(3);
        assertThat(drain(relay)).isZero();

        List<TextMessage> messages = broker.drain(queue);
        assertThat(messages).hasSize(3);
        assertThat(messages).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID)).containsExactly(a, b, c);
        assertThat(messages).extracting(m -> QueueProbe.property(m, EnvelopeMessages.DUPLICATE_ID))
                .as("the duplicate id: event id and a digest of the envelope")
                .allMatch(d -> d.matches("[^|]+\\|sha256:[0-9a-f]{32}"))
                .extracting(d -> d.substring(0, d.indexOf('|'))).containsExactly(a, b, c);
        for (TextMessage m : messages) {
            EventEnvelope e = codec.read(m.getText());
            assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
            assertThat(m.getStringProperty(EnvelopeMessages.ID)).isEqualTo(e.id());
            assertThat(m.getStringProperty(EnvelopeMessages.GROUP_ID)).isEqualTo("Order:" + e.subject());
            assertThat(m.getStringProperty(EnvelopeMessages.TYPE)).isEqualTo(e.type());
            assertThat(m.getIntProperty(EnvelopeMessages.EVENT_VERSION)).isEqualTo(1);
            assertThat(m.getJMSCorrelationID()).isEqualTo("corr-" + e.subject());
            assertThat(EnvelopeMessages.read(m)).as("the properties mirror the body")
                    .isEqualTo(new EnvelopeMessages.Headers(e.id(), e.type(), e.source(), e.subject(),
                            e.aggregateType(), e.eventVersion(), e.groupId(), null));
            assertThat(m.propertyExists(EnvelopeMessages.ENVELOPE_VERSION)).as("V1 is implied by absence").isFalse();
            assertThat(m.getStringProperty(EnvelopeMessages.RELAY)).isNotBlank();
            assertThat(e.envelopeVersion()).isEqualTo(EnvelopeVersion.V1);
            assertThat(e.source()).isEqualTo("urn:legacy-gateway");
            assertThat(e.dataContentType()).isEqualTo(EventEnvelope.JSON);
            assertThat(e.time()).isNotNull();
            assertThat(e.data().get("orderId").asText()).isEqualTo(e.subject());
        }
        assertThat(codec.read(messages.get(0).getText()).data().get("amount").decimalValue()).isEqualByComparingTo("12.5");

        for (String id : List.of(a, b, c)) {
            Map<String, Object> row = rows.row(id);
            assertThat(row.get(column(row, "status"))).isEqualTo("PUBLISHED");
            assertThat(row.get(column(row, "published_at"))).isNotNull();
            assertThat((String) row.get(column(row, "locked_by"))).startsWith(relay.name() + "@");
        }
        assertThat(meters.counter("gateway.outbox.published", "relay", relay.name()).count()).isEqualTo(3.0);
    }

    @Test
    void drainsABacklogLargerThanOneBatchInOnePoll() {
        String queue = unique("it.backlog");
        for (int i = 0; i < 35; i++) {
            rows.insert("order-" + (i % 4), "OrderChanged", "{\"n\":" + i + "}");
        }
        OutboxRelay relay = relay(unique("backlog"), "queue:" + queue, Map.of("batchSize", "10"));

        assertThat(drain(relay)).isEqualTo(35);
        assertThat(broker.count(queue)).isEqualTo(35);
        assertThat(rows.count("PUBLISHED")).isEqualTo(35);
        assertThat(rows.count("PENDING")).isZero();
    }

    @Test
    void rowsOfOneAggregateArePublishedInOutboxOrder() throws Exception {
        String queue = unique("it.order");
        Map<String, List<String>> expected = new HashMap<>();
        for (int i = 0; i < 20; i++) {
            for (String agg : List.of("order-a", "order-b", "order-c")) {
                expected.computeIfAbsent(agg, k -> new ArrayList<>())
                        .add(rows.insert(agg, "OrderChanged", "{\"seq\":" + i + "}"));
            }
        }
        OutboxRelay relay = relay(unique("order"), "queue:" + queue, Map.of("batchSize", "7"));

        assertThat(drain(relay)).isEqualTo(60);

        Map<String, List<String>> seen = new HashMap<>();
        for (TextMessage m : broker.drain(queue)) {
            EventEnvelope e = codec.read(m.getText());
            seen.computeIfAbsent(e.subject(), k -> new ArrayList<>()).add(e.id());
        }
        assertThat(seen).isEqualTo(expected);
    }

    @Test
    void aRowThatCannotBecomeAnEventIsParkedWithItsReasonAndDoesNotBlockTheOthers() throws Exception {
        String queue = unique("it.bad");
        String good1 = rows.insert("order-1", "OrderCreated", "{\"ok\":1}");
        String notJson = rows.insert("order-2", "OrderCreated", "{not json");
        String noType = rows.insert("order-3", " ", "{\"ok\":3}");
        String badTrace = rows.insert("order-4", "OrderCreated", "{\"ok\":4}");
        rows.jdbc().update("UPDATE outbox SET trace_id = 'garbage' WHERE id = ?", badTrace);
        String good2 = rows.insert("order-2", "OrderPaid", "{\"ok\":5}");
        OutboxRelay relay = relay(unique("bad"), "queue:" + queue, Map.of("maxAttempts", "1"));

        assertThat(drain(relay)).isEqualTo(2);
        assertThat(drain(relay)).isZero();

        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .containsExactly(good1, good2);
        assertThat(rows.status(good1)).isEqualTo("PUBLISHED");
        assertThat(rows.status(good2)).isEqualTo("PUBLISHED");
        assertParked(notJson, "payload: not valid JSON");
        assertParked(noType, "eventType: missing");
        assertParked(badTrace, "trace: 'garbage' is neither a W3C traceparent nor a 32-hex trace id");
        assertThat(meters.counter("gateway.outbox.rejected", "relay", relay.name()).count()).isEqualTo(3.0);
    }

    @Test
    void aDestinationPatternRoutesEachEventByItsType() {
        String prefix = unique("it.type");
        rows.insert("order-1", "OrderCreated", "{}");
        rows.insert("order-1", "OrderPaid", "{}");
        rows.insert("order-2", "OrderCreated", "{}");
        OutboxRelay relay = relay(unique("pattern"), "queue:" + prefix + ".{aggregateType}.{eventType}", Map.of());

        assertThat(drain(relay)).isEqualTo(3);

        assertThat(broker.count(prefix + ".Order.OrderCreated")).isEqualTo(2);
        assertThat(broker.count(prefix + ".Order.OrderPaid")).isEqualTo(1);
    }

    @Test
    void aMappingThatNamesAMissingColumnFailsNamingTheParameter() {
        assertThatThrownBy(() -> relay(unique("missing-column"), "queue:x", Map.of("payloadColumn", "body")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parameter 'payloadColumn'")
                .hasMessageContaining("column 'body' does not exist");
    }

    @Test
    void aMissingTableFailsNamingTheParameter() {
        assertThatThrownBy(() -> relay(unique("missing-table"), "queue:x", Map.of("table", "no_such_outbox")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parameter 'table'")
                .hasMessageContaining("table 'no_such_outbox' does not exist");
    }

    @Test
    void anUnsafeIdentifierFailsNamingTheParameter() {
        assertThatThrownBy(() -> relay(unique("unsafe"), "queue:x", Map.of("statusColumn", "status; DROP TABLE outbox")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parameter 'statusColumn'")
                .hasMessageContaining("is not a safe SQL identifier");
    }

    @Test
    void anUnknownDatasourceFailsNamingTheParameter() {
        assertThatThrownBy(() -> relay(unique("no-ds"), "queue:x", Map.of("dataSource", "nowhere")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parameter 'dataSource'")
                .hasMessageContaining("no datasource 'nowhere'");
    }

    private void assertParked(String eventId, String reason) {
        Map<String, Object> row = rows.row(eventId);
        assertThat(row.get(column(row, "status"))).isEqualTo("FAILED");
        assertThat(row.get(column(row, "last_error")).toString()).startsWith(reason);
        assertThat(((Number) row.get(column(row, "retry_count"))).intValue()).isEqualTo(1);
    }

    /** Column keys come back in the database's identifier case (H2: upper case). */
    static String column(Map<String, Object> row, String name) {
        return row.keySet().stream().filter(k -> k.equalsIgnoreCase(name)).findFirst().orElseThrow();
    }
}
