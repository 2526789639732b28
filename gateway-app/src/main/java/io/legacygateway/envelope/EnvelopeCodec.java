package io.legacygateway.envelope;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Writes and reads {@link EventEnvelope}s as CloudEvents JSON (structured mode). Reading validates: the result is a
 * complete envelope of a known version, or a {@link MalformedEnvelopeException} naming what is wrong.
 *
 * <p>Hand-written rather than the CloudEvents SDK's JSON format ({@code io.cloudevents:cloudevents-json-jackson}
 * 4.0.1, tried on the golden fixtures): the SDK writes {@code datacontenttype} before {@code subject} and
 * {@code time} and the extensions in hash order, and its reader turns {@code 150.00} into {@code 150.0}, so it cannot
 * keep the V1 fixtures byte for byte.
 */
public final class EnvelopeCodec {

    /** A CloudEvents attribute name (compiled once: every envelope read checks each of its names). */
    private static final Pattern ATTRIBUTE_NAME = Pattern.compile("[a-z0-9]{1,20}");
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    // numbers keep their exact digits (150.00 stays 150.00): payloads carry money
    private final ObjectMapper mapper = JsonMapper.builder()
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .build();

    /** What {@link #read} parses with: numbers within {@link BoundedNumbers}' bounds, else malformed. */
    private final ObjectReader boundedReader = mapper.reader().with(new BoundedNumbers());

    public String write(EventEnvelope envelope) {
        StringBuilder out = attributes(envelope, 256);
        if (envelope.data() != null) {
            try {
                out.append(",\"data\":").append(mapper.writeValueAsString(envelope.data()));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("cannot serialise envelope " + envelope.id(), e);
            }
        }
        return out.append('}').toString();
    }

    /**
     * The envelope with JSON text as its data instead of {@code envelope.data()} (a JSON outbox row's payload): the
     * same text as {@link #write(EventEnvelope)} with that payload parsed into the envelope, copied token by token
     * without building a tree (numbers keep their digits; a key repeated in an object stays repeated), or as it is
     * when it is written already as that copy would write it ({@link CanonicalJson}). Content after the first JSON
     * value is ignored, as a parse would.
     *
     * @return the envelope's JSON, or {@code null} when {@code jsonData} holds no JSON value (empty or blank)
     * @throws JsonProcessingException when {@code jsonData} is not JSON
     */
    public String write(EventEnvelope envelope, String jsonData) throws JsonProcessingException {
        if (!CanonicalJson.isCanonical(jsonData)) {
            return writeTokenByToken(envelope, jsonData);
        }
        // what the token copy would give back: the text as it is
        return attributes(envelope, jsonData.length()).append(",\"data\":").append(jsonData).append('}').toString();
    }

    /** {@link #write(EventEnvelope, String)} for any text: the data copied token by token. */
    String writeTokenByToken(EventEnvelope envelope, String jsonData) throws JsonProcessingException {
        StringWriter data = new StringWriter(jsonData.length());
        try (JsonParser p = mapper.createParser(jsonData); JsonGenerator g = mapper.createGenerator(data)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return null;
            }
            int depth = 0;
            do {
                if (t == JsonToken.VALUE_NUMBER_FLOAT) {
                    g.writeNumber(p.getDecimalValue()); // as the tree's exact decimals write it
                } else {
                    g.copyCurrentEvent(p);
                }
                depth += t.isStructStart() ? 1 : t.isStructEnd() ? -1 : 0;
            } while (depth > 0 && (t = p.nextToken()) != null);
        } catch (JsonProcessingException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise envelope " + envelope.id(), e);
        }
        return attributes(envelope, jsonData.length()).append(",\"data\":").append(data).append('}').toString();
    }

    /**
     * The envelope's attributes in {@link EventEnvelope}'s order, absent ones left out, the object left open for the
     * data: written here rather than by a Jackson generator (the relay writes one envelope per event), escaped as
     * Jackson escapes strings ({@link #appendString}).
     */
    private static StringBuilder attributes(EventEnvelope e, int room) {
        StringBuilder b = new StringBuilder(320 + room);
        b.append("{\"specversion\":");
        appendString(b, e.specVersion());
        Integer stated = e.envelopeVersion().attribute();
        if (stated != null) {
            b.append(",\"").append(EnvelopeVersion.ATTRIBUTE).append("\":").append(stated.intValue());
        }
        field(b, "id", e.id());
        field(b, "source", e.source());
        field(b, "type", e.type());
        field(b, "subject", e.subject());
        field(b, "time", e.time() == null ? null : DateTimeFormatter.ISO_INSTANT.format(e.time()));
        field(b, "datacontenttype", e.dataContentType());
        if (e.eventVersion() != null) {
            b.append(",\"eventversion\":").append(e.eventVersion().intValue());
        }
        field(b, "aggregatetype", e.aggregateType());
        field(b, "correlationid", e.correlationId());
        field(b, "causationid", e.causationId());
        field(b, "traceparent", e.traceparent());
        return b;
    }

    private static void field(StringBuilder b, String name, String value) {
        if (value != null) {
            b.append(",\"").append(name).append("\":");
            appendString(b, value);
        }
    }

    /**
     * A JSON string as Jackson's generator writes it with this codec's settings: {@code "} and {@code \} escaped, the
     * control characters as {@code \b \t \n \f \r} or {@code \}{@code u00XX} (upper-case hex), every other
     * character as it is.
     */
    static void appendString(StringBuilder b, String s) {
        b.append('"');
        int n = s.length();
        int plain = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            b.append(s, plain, i);
            plain = i + 1;
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\b' -> b.append("\\b");
                case '\t' -> b.append("\\t");
                case '\n' -> b.append("\\n");
                case '\f' -> b.append("\\f");
                case '\r' -> b.append("\\r");
                default -> b.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        b.append(s, plain, n).append('"');
    }

    /** Parses JSON text; the payload of a JSON outbox row. */
    public JsonNode parseJson(String text) throws JsonProcessingException {
        return mapper.readTree(text);
    }

    /** A value such as a map or a list, as the JSON tree this codec would write for it. */
    public JsonNode tree(Object value) {
        return mapper.valueToTree(value);
    }

    /**
     * Reads and validates an envelope.
     *
     * @throws MalformedEnvelopeException when the text is not JSON, holds a number beyond {@link BoundedNumbers}'
     *                                    bounds, lacks a required attribute, has an attribute of
     *                                    the wrong type, states an unknown {@value EnvelopeVersion#ATTRIBUTE}, or
     *                                    has a {@code specversion} other than its envelope version's
     */
    public EventEnvelope read(String json) throws MalformedEnvelopeException {
        JsonNode tree;
        try {
            tree = boundedReader.readTree(json);
        } catch (BoundedNumbers.NumberOutOfBoundsException e) {
            throw new MalformedEnvelopeException(e.getMessage(), e);
        } catch (JsonProcessingException e) {
            if (e.getCause() instanceof BoundedNumbers.NumberOutOfBoundsException n) {
                throw new MalformedEnvelopeException(n.getMessage(), n);
            }
            throw new MalformedEnvelopeException("not JSON: " + e.getOriginalMessage(), e);
        }
        if (tree == null || !tree.isObject()) {
            throw new MalformedEnvelopeException("not a JSON object");
        }
        ObjectNode o = (ObjectNode) tree;
        EnvelopeVersion envelopeVersion = envelopeVersion(o);
        String specversion = text(o, "specversion", true);
        if (!envelopeVersion.specversion().equals(specversion)) {
            throw new MalformedEnvelopeException("unsupported specversion '" + specversion + "' (envelope version "
                    + envelopeVersion.number() + " uses " + envelopeVersion.specversion() + ")");
        }
        JsonNode version = o.get("eventversion");
        if (version == null || !version.canConvertToInt() || !version.isIntegralNumber() || version.intValue() < 1) {
            throw new MalformedEnvelopeException("eventversion must be an integer >= 1");
        }
        Instant time = null;
        String timeText = text(o, "time", false);
        if (timeText != null) {
            try {
                time = Instant.parse(timeText);
            } catch (DateTimeParseException e) {
                throw new MalformedEnvelopeException("time is not an RFC 3339 timestamp: '" + timeText + "'");
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            String name = it.next().getKey();
            if (!ATTRIBUTE_NAME.matcher(name).matches()) {
                throw new MalformedEnvelopeException("attribute name '" + name + "' is not a CloudEvents name");
            }
        }
        return new EventEnvelope(envelopeVersion, text(o, "id", true), text(o, "source", true), text(o, "type", true),
                text(o, "subject", true), time, text(o, "datacontenttype", false), version.intValue(),
                text(o, "aggregatetype", true), text(o, "correlationid", false), text(o, "causationid", false),
                text(o, "traceparent", false), o.get("data"));
    }

    /** The version the envelope states in {@value EnvelopeVersion#ATTRIBUTE}, never one guessed from specversion. */
    private static EnvelopeVersion envelopeVersion(ObjectNode o) throws MalformedEnvelopeException {
        JsonNode n = o.get(EnvelopeVersion.ATTRIBUTE);
        if (n == null) {
            return EnvelopeVersion.V1;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
            throw new MalformedEnvelopeException(EnvelopeVersion.ATTRIBUTE + " must be an integer, is " + n);
        }
        return EnvelopeVersion.stated(n.intValue()).orElseThrow(() -> new MalformedEnvelopeException(
                "unsupported " + EnvelopeVersion.ATTRIBUTE + " " + n.intValue()));
    }

    private static String text(ObjectNode o, String name, boolean required) throws MalformedEnvelopeException {
        JsonNode n = o.get(name);
        if (n == null || n.isNull()) {
            if (required) {
                throw new MalformedEnvelopeException("required attribute '" + name + "' is missing");
            }
            return null;
        }
        if (!n.isTextual() || (required && n.textValue().isBlank())) {
            throw new MalformedEnvelopeException("attribute '" + name + "' must be a non-empty string");
        }
        return n.textValue();
    }
}
