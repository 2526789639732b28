package io.legacygateway.inbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.legacygateway.envelope.EventEnvelope;
import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@link EnvelopeValues#byName} as a read-only view: {@link #containsKey} and {@link #get} value one name when it is
 * asked for, so that a step binding three names neither copies the data nor renders its other objects as JSON text
 * (camel-sql converts the body to a map for each parameter it looks up). Iterating renders every entry.
 */
final class EnvelopeByName extends AbstractMap<String, Object> {

    private static final String PREFIX = "ce_";

    private final EventEnvelope envelope;

    EnvelopeByName(EventEnvelope envelope) {
        this.envelope = envelope;
    }

    @Override
    public boolean containsKey(Object key) {
        return key instanceof String name && (attribute(name) != null || member(name) != null);
    }

    @Override
    public Object get(Object key) {
        if (!(key instanceof String name)) {
            return null;
        }
        String attribute = attribute(name);
        if (attribute != null) {
            return EnvelopeValues.value(envelope, null, attribute);
        }
        JsonNode member = member(name);
        return member == null ? null : EnvelopeValues.scalar(member);
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        Map<String, Object> values = new LinkedHashMap<>();
        JsonNode data = envelope.data();
        if (data != null && data.isObject()) {
            data.properties().forEach(m -> values.put(m.getKey(), EnvelopeValues.scalar(m.getValue())));
        }
        for (String attribute : EnvelopeValues.CLOUDEVENTS_ATTRIBUTES) {
            values.put(PREFIX + attribute, EnvelopeValues.value(envelope, null, attribute));
        }
        return values.entrySet();
    }

    /** The attribute that {@code ce_<attribute>} names, or {@code null}. */
    private static String attribute(String name) {
        if (!name.startsWith(PREFIX)) {
            return null;
        }
        String attribute = name.substring(PREFIX.length());
        return EnvelopeValues.CLOUDEVENTS_ATTRIBUTES.contains(attribute) ? attribute : null;
    }

    /** The data's top-level member {@code name} (a JSON null is a node), or {@code null} when it has none. */
    private JsonNode member(String name) {
        JsonNode data = envelope.data();
        return data != null && data.isObject() ? data.get(name) : null;
    }
}
