package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EnvelopeVersion;
import io.legacygateway.envelope.EventEnvelope;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The envelope's values by plain name, as camel-sql's {@code :#name} parameters find them. */
class EnvelopeValuesByNameTest {

    private static final Instant TIME = Instant.parse("2026-03-01T10:15:30.123456Z");

    @Test
    void dataMembersByTheirNamesAndAttributesAsCloudEventsNames() throws Exception {
        EventEnvelope e = envelope("""
                {"amount": 12.50, "count": 3, "account": "A-7", "vip": true, "note": null,
                 "customer": {"id": "c-1"}, "lines": [1, 2], "ce_type": "shadowed"}""");

        Map<String, Object> values = EnvelopeValues.byName(e);

        assertThat(values.get("amount")).isEqualTo(new BigDecimal("12.50"));
        assertThat(values.get("count")).isEqualTo(3L);
        assertThat(values.get("account")).isEqualTo("A-7");
        assertThat(values.get("vip")).isEqualTo(true);
        assertThat(values).containsEntry("note", null);
        assertThat(values.get("customer")).isEqualTo("{\"id\":\"c-1\"}");
        assertThat(values.get("lines")).isEqualTo("[1,2]");
        assertThat(values.get("ce_id")).isEqualTo("event-1");
        assertThat(values.get("ce_type")).as("the attribute wins").isEqualTo("PaymentReceived");
        assertThat(values.get("ce_subject")).isEqualTo("payment-9");
        assertThat(values.get("ce_time")).isEqualTo(Timestamp.from(TIME));
        assertThat(values.get("ce_eventversion")).isEqualTo(2);
        assertThat(values.get("ce_aggregatetype")).isEqualTo("Payment");
        assertThat(values.get("ce_source")).isEqualTo("urn:test");
        assertThat(values).containsEntry("ce_correlationid", null).containsEntry("ce_causationid", null);
        assertThat(values.containsKey("note")).isTrue();
        assertThat(values.containsKey("missing")).isFalse();
        assertThat(values.containsKey("ce_nothing")).isFalse();
        Map<String, Object> iterated = new LinkedHashMap<>(values);
        assertThat(iterated).hasSize(16);
        iterated.forEach((name, value) -> assertThat(values.get(name)).as(name).isEqualTo(value));
    }

    @Test
    void dataThatIsNoObjectGivesTheAttributesOnly() throws Exception {
        assertThat(EnvelopeValues.byName(envelope("[1, 2]")).keySet())
                .containsExactlyElementsOf(EnvelopeValues.CLOUDEVENTS_ATTRIBUTES.stream().map(a -> "ce_" + a).toList());
    }

    /** An envelope whose data is parsed as the consumer parses a message (exact decimals). */
    private static EventEnvelope envelope(String data) throws Exception {
        return new EventEnvelope(EnvelopeVersion.V1, "event-1", "urn:test", "PaymentReceived", "payment-9", TIME,
                EventEnvelope.JSON, 2, "Payment", null, null, null, new EnvelopeCodec().parseJson(data));
    }
}
