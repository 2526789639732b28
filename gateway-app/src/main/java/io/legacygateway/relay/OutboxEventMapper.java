package io.legacygateway.relay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.TextNode;
import io.legacygateway.adapters.outbox.OutboxRejection;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EnvelopeVersion;
import io.legacygateway.envelope.EventEnvelope;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Turns a claimed outbox row into an {@link OutboundEvent}, or into a rejection naming the first thing wrong with the
 * row. A rejection is data, not an exception: one bad row never stops the others.
 */
final class OutboxEventMapper {

    static final int MAX_ID_LENGTH = 255;
    /**
     * Longest row value copied into a message header (event type, aggregate type, aggregate id, correlation id). The
     * broker client refuses a large message whose headers exceed {@code minLargeMessageSize} (100 KiB by default, two
     * bytes per character): with every such value within this bound, the headers stay near 14 KiB.
     */
    static final int MAX_HEADER_LENGTH = 1024;
    private static final Pattern TRACEPARENT = Pattern.compile("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    private static final Pattern TRACE_ID = Pattern.compile("[0-9a-f]{32}");

    private final EnvelopeCodec codec;
    private final String source;
    private final Destination destination;
    private final PayloadFormat payloadFormat;
    private final long maxPayloadBytes;

    OutboxEventMapper(EnvelopeCodec codec, String source, Destination destination, PayloadFormat payloadFormat) {
        this(codec, source, destination, payloadFormat, Long.MAX_VALUE);
    }

    /** @param maxPayloadBytes the largest payload, in bytes of UTF-8, that becomes an event ({@code maxPayloadBytes}) */
    OutboxEventMapper(EnvelopeCodec codec, String source, Destination destination, PayloadFormat payloadFormat,
                      long maxPayloadBytes) {
        this.codec = codec;
        this.source = source;
        this.destination = destination;
        this.payloadFormat = payloadFormat;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    /** Either {@link OutboundEvent} or {@link OutboxRejection}. */
    sealed interface Result permits Mapped, Rejected {
    }

    record Mapped(OutboundEvent event) implements Result {
    }

    record Rejected(OutboxRejection rejection) implements Result {
    }

    Result map(OutboxRow row) {
        String problem = firstProblem(row);
        if (problem != null) {
            return reject(row, problem);
        }
        long size = payloadBytes(row.payload(), maxPayloadBytes);
        if (size > maxPayloadBytes) {
            return reject(row, "payload: " + size + " bytes, more than maxPayloadBytes (" + maxPayloadBytes
                    + " bytes)");
        }
        Integer version = version(row.eventVersion());
        if (version == null) {
            return reject(row, "eventVersion: '" + row.eventVersion() + "' is not an integer >= 1");
        }
        boolean json = payloadFormat != PayloadFormat.TEXT; // COLUMNS: a JSON object the reader built
        String traceparent = null;
        boolean badTrace = false;
        if (row.trace() != null && !row.trace().isBlank()) {
            traceparent = traceparent(row.trace().strip().toLowerCase(), row.eventId());
            badTrace = traceparent == null;
        }
        String address = destination.resolve(row.eventType(), row.aggregateType());
        // the event's data: a JSON payload is copied into the envelope's text token by token (no tree: this is the
        // relay's hot path), so the envelope itself carries no data
        EventEnvelope envelope = new EventEnvelope(EnvelopeVersion.current(), row.eventId(), source,
                row.eventType(), row.aggregateId(), row.occurredAt() != null ? row.occurredAt() : row.createdAt(),
                json ? EventEnvelope.JSON : EventEnvelope.TEXT, version, row.aggregateType(),
                blankToNull(row.correlationId()), blankToNull(row.causationId()), traceparent,
                json ? null : TextNode.valueOf(row.payload()));
        String text;
        if (json) {
            try {
                text = codec.write(envelope, row.payload());
            } catch (JsonProcessingException e) {
                return reject(row, "payload: not valid JSON (" + e.getOriginalMessage() + ")");
            }
            if (text == null) {
                return reject(row, "payload: empty");
            }
        } else {
            text = codec.write(envelope);
        }
        if (badTrace) {
            return reject(row, "trace: '" + row.trace() + "' is neither a W3C traceparent nor a 32-hex trace id");
        }
        if (address == null) {
            return reject(row, "destination: '" + destination + "' gives an unsafe address for event type '"
                    + row.eventType() + "' and aggregate type '" + row.aggregateType() + "'");
        }
        return new Mapped(new OutboundEvent(row, envelope, text, address, destination.topic()));
    }

    private static String firstProblem(OutboxRow row) {
        if (row.problem() != null) {
            return row.problem();
        }
        if (blank(row.eventId())) {
            return "eventId: missing";
        }
        if (row.eventId().length() > MAX_ID_LENGTH) {
            return "eventId: longer than " + MAX_ID_LENGTH + " characters";
        }
        if (blank(row.aggregateType())) {
            return "aggregateType: missing";
        }
        if (blank(row.aggregateId())) {
            return "aggregateId: missing";
        }
        if (blank(row.eventType())) {
            return "eventType: missing";
        }
        if (row.payload() == null) {
            return "payload: missing";
        }
        String tooLong = longerThanAHeader("eventType", row.eventType());
        if (tooLong == null) {
            tooLong = longerThanAHeader("aggregateType", row.aggregateType());
        }
        if (tooLong == null) {
            tooLong = longerThanAHeader("aggregateId", row.aggregateId());
        }
        if (tooLong == null) {
            tooLong = longerThanAHeader("correlationId", row.correlationId());
        }
        return tooLong;
    }

    /**
     * The payload's size in bytes of UTF-8, or, when every character may take three bytes and the payload still fits
     * in {@code limit} (the usual short payload), its length in characters: no pass over the text.
     */
    static long payloadBytes(String payload, long limit) {
        long chars = payload.length();
        if (chars * 3 <= limit) {
            return chars;
        }
        long bytes = 0;
        for (int i = 0; i < payload.length(); i++) {
            char c = payload.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)) {
                bytes += 4; // with its low surrogate: one code point of four bytes
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** Why a value copied into a message header makes the row unsendable, or {@code null} when it fits. */
    private static String longerThanAHeader(String field, String value) {
        return value != null && value.length() > MAX_HEADER_LENGTH ? field + ": " + value.length()
                + " characters, more than the " + MAX_HEADER_LENGTH + " a message header may carry" : null;
    }

    private static Integer version(Object raw) {
        if (raw == null) {
            return 1;
        }
        if (raw instanceof Integer || raw instanceof Long || raw instanceof Short) {
            long v = ((Number) raw).longValue(); // the usual INT column: no text to parse per row
            return v >= 1 && v <= Integer.MAX_VALUE ? (int) v : null;
        }
        try {
            BigDecimal v = new BigDecimal(raw.toString().strip());
            int i = v.intValueExact();
            return i >= 1 ? i : null;
        } catch (NumberFormatException | ArithmeticException e) {
            return null;
        }
    }

    /** A full traceparent is kept; a bare trace id gets a parent id derived from the event id, so output is stable. */
    private static String traceparent(String trace, String eventId) {
        if (TRACEPARENT.matcher(trace).matches()) {
            return trace;
        }
        if (TRACE_ID.matcher(trace).matches()) {
            try {
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(eventId.getBytes(StandardCharsets.UTF_8));
                return "00-" + trace + "-" + HexFormat.of().formatHex(digest, 0, 8) + "-01";
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
        return null;
    }

    private static Rejected reject(OutboxRow row, String reason) {
        return new Rejected(new OutboxRejection(row, reason));
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static String blankToNull(String s) {
        return blank(s) ? null : s;
    }
}
