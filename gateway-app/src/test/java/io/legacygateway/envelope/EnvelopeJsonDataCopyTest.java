package io.legacygateway.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The relay copies a JSON payload into the envelope token by token instead of parsing it into a tree: the text must be
 * exactly what the tree gave (the duplicate-detection id digests it, so a resend across an upgrade must match).
 */
class EnvelopeJsonDataCopyTest {

    private final EnvelopeCodec codec = new EnvelopeCodec();

    private static EventEnvelope envelope(com.fasterxml.jackson.databind.JsonNode data) {
        return new EventEnvelope(EnvelopeVersion.V1, "evt-1", "urn:s", "OrderCreated", "O-1", Instant.parse("2026-12-01T10:00:00.5Z"),
                EventEnvelope.JSON, 1, "Order", null, "cmd-1", null, data);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"orderId\":\"O-1\",\"amount\":150.00,\"lines\":[{\"sku\":\"A-1\",\"quantity\":2}]}",
            "  {\n  \"a\" : [ 1, -0, 2.50, 1e3, 1.0E-7, -12345678901234567890, 3.141592653589793238462643 ] }  ",
            "{\"text\":\"caf\\u00e9 \\\"quoted\\\" \\n tab\\t \\u0001 \\ud83d\\ude00 </script>\",\"nested\":{\"x\":{}}}",
            "[]", "[[],{},[null,true,false]]", "\"just a string\"", "42", "-1.50", "null", "true",
            "{\"a\":1} trailing text is ignored, as a parse ignores it"
    })
    void copyingTheTextGivesTheTextOfTheParsedTree(String payload) throws Exception {
        assertThat(codec.write(envelope(null), payload)).isEqualTo(codec.write(envelope(codec.parseJson(payload))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "\n\t"})
    void aBlankPayloadHoldsNoValue(String payload) throws Exception {
        assertThat(codec.write(envelope(null), payload)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"{not json", "{\"a\":1", "[1,2", "{\"a\":}", "'single'"})
    void textThatIsNotJsonFailsAsAParseWould(String payload) {
        assertThatThrownBy(() -> codec.write(envelope(null), payload)).isInstanceOf(JsonProcessingException.class);
        assertThatThrownBy(() -> codec.parseJson(payload)).isInstanceOf(JsonProcessingException.class);
    }
}
