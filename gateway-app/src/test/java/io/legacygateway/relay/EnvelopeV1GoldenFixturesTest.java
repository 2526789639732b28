package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Envelope version 1 as consumers see it: each golden fixture in {@code envelope/v1/} is what the relay writes for a
 * given outbox row (attribute names, order and values), and it reads back unchanged. Changing a fixture is changing the
 * contract with every consumer: add a new envelope version instead.
 */
class EnvelopeV1GoldenFixturesTest {

    private final EnvelopeCodec codec = new EnvelopeCodec();
    private final ObjectMapper json = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .nodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true))
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

    @Test
    void aFullRowBecomesTheOrderCreatedFixture() throws Exception {
        OutboxRow row = new OutboxRow(1L, 1L, "evt-order-O-1001-created", "Order", "O-1001", "OrderCreated", 2,
                "{\"orderId\":\"O-1001\",\"customerId\":\"alice\",\"amount\":150.00,\"lines\":[{\"sku\":\"A-1\",\"quantity\":2}]}",
                Instant.parse("2026-11-29T10:15:30.123456Z"), Instant.parse("2026-11-29T10:15:31Z"), "corr-42", "cmd-7",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", 0);
        assertWritesFixture(mapper("urn:legacy-gateway:demo-shop", PayloadFormat.JSON), row, "order-created.json");
    }

    @Test
    void aTextRowWithoutOptionalColumnsBecomesTheMinimalFixture() throws Exception {
        OutboxRow row = new OutboxRow(42L, 42L, "42", "Customer", "C-7", "CustomerNoteAdded", null,
                "called back, all fine", null, null, null, " ", null, 0);
        assertWritesFixture(mapper("urn:legacy-gateway", PayloadFormat.TEXT), row, "minimal-text.json");
    }

    @Test
    void aBareTraceIdGetsAStableParentIdDerivedFromTheEventId() throws Exception {
        OutboxRow row = new OutboxRow(2L, 2L, "evt-2", "Order", "O-1001", "OrderPaid", "1", "{\"orderId\":\"O-1001\"}",
                null, Instant.parse("2026-11-29T10:16:00Z"), null, null, "4BF92F3577B34DA6A3CE929D0E0E4736", 0);
        assertWritesFixture(mapper("urn:legacy-gateway", PayloadFormat.JSON), row, "trace-id-only.json");
    }

    @Test
    void everyFixtureReadsBackAndWritesUnchanged() throws Exception {
        for (String fixture : List.of("order-created.json", "minimal-text.json", "trace-id-only.json")) {
            String text = fixture(fixture);
            EventEnvelope envelope = codec.read(text);
            assertSameJson(codec.write(envelope), text, fixture);
        }
    }

    private void assertWritesFixture(OutboxEventMapper mapper, OutboxRow row, String fixture) throws Exception {
        OutboxEventMapper.Result result = mapper.map(row);
        assertThat(result).isInstanceOf(OutboxEventMapper.Mapped.class);
        assertSameJson(((OutboxEventMapper.Mapped) result).event().json(), fixture(fixture), fixture);
    }

    /** Byte for byte the fixture, once the fixture's indentation is removed: same attributes, order and digits. */
    private void assertSameJson(String actual, String expected, String fixture) throws IOException {
        JsonNode e = json.readTree(expected);
        assertThat(names(json.readTree(actual))).as(fixture + " attribute order").isEqualTo(names(e));
        assertThat(actual).as(fixture).isEqualTo(json.writeValueAsString(e));
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private OutboxEventMapper mapper(String source, PayloadFormat format) {
        return new OutboxEventMapper(codec, source, Destination.parse("destination", "queue:events"), format);
    }

    private static String fixture(String name) throws IOException {
        try (InputStream in = EnvelopeV1GoldenFixturesTest.class.getResourceAsStream("/envelope/v1/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
