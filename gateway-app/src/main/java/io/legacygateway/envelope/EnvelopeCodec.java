package io.legacygateway.envelope;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.Map;

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

    // numbers keep their exact digits (150.00 stays 150.00): payloads carry money
    private final ObjectMapper mapper = JsonMapper.builder()
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .build();

    public String write(EventEnvelope envelope) {
        try {
            return mapper.writeValueAsString(envelope);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise envelope " + envelope.id(), e);
        }
    }

    /** Parses JSON text; the payload of a JSON outbox row. */
    public JsonNode parseJson(String text) throws JsonProcessingException {
        return mapper.readTree(text);
    }

    /**
     * Reads and validates an envelope.
     *
     * @throws MalformedEnvelopeException when the text is not JSON, lacks a required attribute, has an attribute of
     *                                    the wrong type, states an unknown {@value EnvelopeVersion#ATTRIBUTE}, or
     *                                    has a {@code specversion} other than its envelope version's
     */
    public EventEnvelope read(String json) throws MalformedEnvelopeException {
        JsonNode tree;
        try {
            tree = mapper.readTree(json);
        } catch (JsonProcessingException e) {
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
            if (!name.matches("[a-z0-9]{1,20}")) {
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
