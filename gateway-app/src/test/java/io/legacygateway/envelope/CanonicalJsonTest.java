package io.legacygateway.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A payload that {@link CanonicalJson} takes as canonical is copied into the envelope as it is: that must give the very
 * text the token-by-token copy (and the parsed tree) gives, for every text, canonical or not; and what the codec
 * writes itself must be taken as canonical, or the relay would never take the short way.
 */
class CanonicalJsonTest {

    private final EnvelopeCodec codec = new EnvelopeCodec();

    private static EventEnvelope envelope(com.fasterxml.jackson.databind.JsonNode data) {
        return new EventEnvelope(EnvelopeVersion.V1, "evt-1", "urn:s", "OrderCreated", "O-1",
                Instant.parse("2026-12-01T10:00:00Z"), EventEnvelope.JSON, 1, "Order", null, null, null, data);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"orderId\":\"O-1\",\"amount\":150.00,\"lines\":[{\"sku\":\"A-1\",\"quantity\":2}]}",
            "[]", "{}", "[[],{},[null,true,false]]", "\"just a string\"", "42", "-1.50", "0.000001", "0.10", "-0.5",
            "12345678901234567890123", "\"caf\u00e9 \\\"q\\\" \\\\ \\b\\t\\n\\f\\r \\u0001\\u001F \uD83D\uDE00 </a>\""
    })
    void textWrittenAsTheCodecWritesItIsCanonical(String text) throws Exception {
        assertThat(CanonicalJson.isCanonical(text)).isTrue();
        assertThat(data(codec.write(envelope(codec.parseJson(text))))).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            " {}", "{} ", "{ }", "[1, 2]", "{\"a\": 1}", "-0", "-0.0", "1e3", "1E+3", "1.5E-7", "0.0000001",
            "\"\\/\"", "\"\\u00e9\"", "\"\\u001f\"", "\"\\u000A\"", "\"\\u0041\"", "{\"a\":1} trailing", "01", "1.",
            ".5", "+1", "[1,]", "{\"a\":1,}", "'x'", "\"open", "nul", "", "{\"a\"}", "[\"\u0001\"]"
    })
    void otherTextIsNot(String text) {
        assertThat(CanonicalJson.isCanonical(text)).isFalse();
    }

    @Test
    void aRepeatedKeyStaysRepeatedAsTheTokenCopyKeepsIt() throws Exception {
        String text = "{\"a\":1,\"a\":2}";
        assertThat(CanonicalJson.isCanonical(text)).isTrue();
        assertThat(codec.write(envelope(null), text)).isEqualTo(codec.writeTokenByToken(envelope(null), text))
                .endsWith(",\"data\":" + text + "}");
    }

    @Test
    void theShortWayAndTheTokenCopyWriteTheSameEnvelopeForRandomPayloads() throws Exception {
        Random random = new Random(20261203L);
        int canonical = 0;
        for (int n = 0; n < 20_000; n++) {
            String payload = new RandomJson(random).value(0);
            String viaTokens;
            try {
                viaTokens = codec.writeTokenByToken(envelope(null), payload);
            } catch (JsonProcessingException e) {
                assertThat(CanonicalJson.isCanonical(payload)).as(payload).isFalse();
                continue; // not JSON: the relay rejects the row (EnvelopeJsonDataCopyTest)
            }
            assertThat(codec.write(envelope(null), payload)).as(payload).isEqualTo(viaTokens);
            String written = data(viaTokens);
            if (CanonicalJson.isCanonical(payload)) {
                canonical++;
                assertThat(written).as(payload).isEqualTo(payload);
            }
            if (!written.matches("(?s).*[0-9]E.*")) { // BigDecimal's exponents take the token copy
                assertThat(CanonicalJson.isCanonical(written)).as(written).isTrue();
            }
        }
        assertThat(canonical).as("payloads taken the short way").isGreaterThan(2_000);
    }

    /** The data of an envelope as this test's {@link #envelope} writes it. */
    private static String data(String envelope) {
        String marker = ",\"data\":";
        return envelope.substring(envelope.indexOf(marker) + marker.length(), envelope.length() - 1);
    }

    /** JSON-ish text: mostly valid, in canonical and other spellings, now and then broken. */
    private static final class RandomJson {
        private static final String[] NUMBERS = {"0", "-0", "7", "-12", "150.00", "0.5", "-0.0", "0.000001",
                "0.0000001", "1e3", "1E-2", "2.5E+10", "12345678901234567890", "3.141592653589793238", "01", "1."};
        private static final String[] STRING_PARTS = {"a", "Zz", " ", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\b",
                "\\f", "\\r", "\\u0001", "\\u001F", "\\u001f", "\\u00e9", "\\u000A", "\\uD83D\\uDE00", "\u00e9",
                "\u2028", "\uD83D\uDE00", "<", "'", "\u007F", "\\x"};
        private final Random r;

        RandomJson(Random r) {
            this.r = r;
        }

        String value(int depth) {
            int kind = depth > 4 ? 2 + r.nextInt(4) : r.nextInt(6);
            return switch (kind) {
                case 0 -> object(depth);
                case 1 -> array(depth);
                case 2 -> string();
                case 3 -> NUMBERS[r.nextInt(NUMBERS.length)];
                case 4 -> new String[]{"true", "false", "null"}[r.nextInt(3)];
                default -> r.nextInt(20) == 0 ? "nul" : string();
            };
        }

        private String object(int depth) {
            StringBuilder b = new StringBuilder("{").append(space());
            int n = r.nextInt(4);
            for (int k = 0; k < n; k++) {
                b.append(k > 0 ? "," + space() : "").append(string()).append(space()).append(':').append(space())
                        .append(value(depth + 1)).append(space());
            }
            return b.append('}').toString();
        }

        private String array(int depth) {
            StringBuilder b = new StringBuilder("[").append(space());
            int n = r.nextInt(4);
            for (int k = 0; k < n; k++) {
                b.append(k > 0 ? "," + space() : "").append(value(depth + 1)).append(space());
            }
            return b.append(']').toString();
        }

        private String string() {
            StringBuilder b = new StringBuilder("\"");
            int n = r.nextInt(5);
            for (int k = 0; k < n; k++) {
                b.append(STRING_PARTS[r.nextInt(STRING_PARTS.length)]);
            }
            return b.append('"').toString();
        }

        private String space() {
            return r.nextInt(8) == 0 ? new String[]{" ", "\n", "\t ", "  "}[r.nextInt(4)] : "";
        }
    }
}
