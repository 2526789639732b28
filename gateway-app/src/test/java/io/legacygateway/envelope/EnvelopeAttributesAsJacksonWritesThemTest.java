package io.legacygateway.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The codec writes an envelope's attributes itself, not through a Jackson generator (one envelope per relayed event):
 * the text must be the one Jackson writes for the same fields in the same order, whatever the strings hold (quotes,
 * backslashes, every control character, non-ASCII text, surrogate pairs and lone surrogates).
 */
class EnvelopeAttributesAsJacksonWritesThemTest {

    private final EnvelopeCodec codec = new EnvelopeCodec();
    private final ObjectMapper jackson = new ObjectMapper();

    @Test
    void everyCharacterOfAnAttributeIsWrittenAsJacksonWritesIt() throws Exception {
        StringBuilder all = new StringBuilder();
        for (char c = 0; c < 0x3000; c++) {
            all.append(c);
        }
        all.append("\uD83D\uDE00 \uD800 \uDC00 \u2028\u2029\uFFFF");
        assertSameAsJackson(envelope(all.toString(), "urn:s", null, EnvelopeVersion.V1, 1));
    }

    @Test
    void randomAttributesAreWrittenAsJacksonWritesThem() throws Exception {
        Random random = new Random(20261203L);
        for (int n = 0; n < 5_000; n++) {
            EnvelopeVersion version = EnvelopeVersion.values()[random.nextInt(EnvelopeVersion.values().length)];
            assertSameAsJackson(envelope(text(random), text(random), random.nextBoolean() ? null : text(random),
                    version, 1 + random.nextInt(Integer.MAX_VALUE)));
        }
    }

    private void assertSameAsJackson(EventEnvelope e) throws Exception {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("specversion", e.specVersion());
        if (e.envelopeVersion().attribute() != null) {
            fields.put(EnvelopeVersion.ATTRIBUTE, e.envelopeVersion().attribute());
        }
        fields.put("id", e.id());
        fields.put("source", e.source());
        fields.put("type", e.type());
        fields.put("subject", e.subject());
        fields.put("time", e.time().toString());
        fields.put("datacontenttype", e.dataContentType());
        fields.put("eventversion", e.eventVersion());
        fields.put("aggregatetype", e.aggregateType());
        if (e.correlationId() != null) {
            fields.put("correlationid", e.correlationId());
        }
        fields.put("data", Map.of("n", 1));
        String expected = jackson.writeValueAsString(fields);
        assertThat(codec.write(e, "{\"n\":1}")).isEqualTo(expected);
        assertThat(codec.writeTokenByToken(e, " { \"n\" : 1 } ")).isEqualTo(expected);
        assertThat(codec.write(e, "{\"n\":1}")).isEqualTo(codec.write(withData(e)));
    }

    private EventEnvelope withData(EventEnvelope e) throws Exception {
        return new EventEnvelope(e.envelopeVersion(), e.id(), e.source(), e.type(), e.subject(), e.time(),
                e.dataContentType(), e.eventVersion(), e.aggregateType(), e.correlationId(), e.causationId(),
                e.traceparent(), codec.parseJson("{\"n\":1}"));
    }

    private static EventEnvelope envelope(String id, String type, String correlationId, EnvelopeVersion version,
                                          int eventVersion) {
        return new EventEnvelope(version, id, "urn:legacy:" + type, type, "O-" + id, Instant.parse("2026-12-03T10:00:00Z"),
                EventEnvelope.JSON, eventVersion, "Order\"" + type, correlationId, null, null, null);
    }

    private static String text(Random random) {
        StringBuilder b = new StringBuilder();
        int n = random.nextInt(12);
        for (int i = 0; i < n; i++) {
            b.append(switch (random.nextInt(6)) {
                case 0 -> (char) random.nextInt(0x20);
                case 1 -> "\"\\/".charAt(random.nextInt(3));
                case 2 -> (char) (0x80 + random.nextInt(0x800));
                case 3 -> (char) (0xD800 + random.nextInt(0x800));
                default -> (char) (0x20 + random.nextInt(0x60));
            });
        }
        return b.toString();
    }
}
