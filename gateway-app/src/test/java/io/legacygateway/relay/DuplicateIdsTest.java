package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxColumn;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.outbox.mapping.ValueTemplate;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EnvelopeVersion;
import io.legacygateway.envelope.EventEnvelope;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The duplicate-detection id is the event id plus a digest of the envelope: the same row gives the same id every time,
 * another event with the same id does not. And which {@code eventId} templates make ids from the key alone (the
 * startup warning; {@link ReusedEventIdIsNotDroppedTest} shows the warning itself).
 */
class DuplicateIdsTest {

    private static final Set<String> ALL = Set.of("key", "table", "aggregateId", "aggregateType", "eventType");
    private final EnvelopeCodec codec = new EnvelopeCodec();

    private OutboundEvent event(String id, String payloadText, Instant time) {
        OutboxRow row = new OutboxRow(1L, 1L, id, "Invoice", "I-1", "InvoiceIssued", 1, payloadText, time, null, null,
                null, null, 0);
        EventEnvelope e = new EventEnvelope(EnvelopeVersion.V1, id, "urn:test", "InvoiceIssued", "I-1", time,
                EventEnvelope.TEXT, 1, "Invoice", null, null, null, JsonNodeFactory.instance.textNode(payloadText));
        return new OutboundEvent(row, e, codec.write(e), "invoices", false);
    }

    @Test
    void theSameEnvelopeGivesTheSameIdAndAnotherContentUnderTheSameEventIdAnother() {
        Instant t = Instant.parse("2026-11-30T08:00:00Z");
        String first = DuplicateIds.of(event("billing-1", "a", t));
        assertThat(first).matches("billing-1\\|sha256:[0-9a-f]{32}");
        assertThat(DuplicateIds.of(event("billing-1", "a", t))).as("a resend of the same row").isEqualTo(first);
        assertThat(DuplicateIds.of(event("billing-1", "b", t))).as("other payload").isNotEqualTo(first)
                .startsWith("billing-1|sha256:");
        assertThat(DuplicateIds.of(event("billing-1", "a", t.plusMillis(1)))).as("other time").isNotEqualTo(first);
    }

    @Test
    void aPublishersDigestGivesEachEventTheIdItWouldGetAlone() {
        Instant t = Instant.parse("2026-11-30T08:00:00Z");
        DuplicateIds.Digest digest = new DuplicateIds.Digest();
        for (String payload : new String[] {"a", "b", "a", "a much longer payload than the others"}) {
            OutboundEvent e = event("billing-" + payload.length(), payload, t);
            assertThat(digest.of(e)).as("the digest is reset between events").isEqualTo(DuplicateIds.of(e));
        }
    }

    @Test
    void anEventIdFromTheKeyAloneIsFoundAndOneWithAValuePerRowIsNot() {
        assertThat(keyOnly("billing-{key}", Map.of())).isTrue();
        assertThat(keyOnly("{table}-{key}", Map.of())).isTrue();
        assertThat(keyOnly("{aggregateType}-{key}", Map.of(OutboxColumn.AGGREGATE_TYPE, "Invoice")))
                .as("a constant aggregate type is the same for every row").isTrue();
        assertThat(keyOnly("{eventType}-{key}", Map.of(OutboxColumn.AGGREGATE_TYPE, "Invoice",
                OutboxColumn.EVENT_TYPE, "{aggregateType}Issued"))).isTrue();
        assertThat(keyOnly("{aggregateType}-{key}", Map.of())).as("an aggregate type column varies").isFalse();
        assertThat(keyOnly("{aggregateId}-{key}", Map.of())).isFalse();
        assertThat(keyOnly("{eventType}-{key}", Map.of(OutboxColumn.EVENT_TYPE, "{aggregateId}Changed"))).isFalse();
        assertThat(keyOnly("billing-{aggregateId}", Map.of())).as("no key: not this warning").isFalse();
        assertThat(DuplicateIds.keyOnlyEventId(mapping(new EnumMap<>(OutboxColumn.class)))).as("an event id column")
                .isNull();
    }

    private static boolean keyOnly(String eventId, Map<OutboxColumn, String> others) {
        Map<OutboxColumn, String> values = new EnumMap<>(OutboxColumn.class);
        values.putAll(others);
        values.put(OutboxColumn.EVENT_ID, eventId);
        return DuplicateIds.keyOnlyEventId(mapping(values)) != null;
    }

    private static OutboxMapping mapping(Map<OutboxColumn, String> values) {
        Map<OutboxColumn, ValueTemplate> parsed = new EnumMap<>(OutboxColumn.class);
        values.forEach((c, v) -> parsed.put(c, ValueTemplate.parse(c.valueParameter(), v, ALL)));
        return new OutboxMapping(null, MarkMode.STATUS, new EnumMap<>(OutboxColumn.class), Map.of(), parsed,
                "PENDING", "PUBLISHED", "FAILED", PayloadFormat.TEXT, ZoneOffset.UTC);
    }
}
