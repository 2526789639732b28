package io.legacygateway.inbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.legacygateway.envelope.EventEnvelope;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The values an effect can bind by name: the envelope's attributes ({@code :id}, {@code :source}, {@code :type},
 * {@code :subject}, {@code :time}, {@code :eventversion}, {@code :aggregatetype}, {@code :correlationid},
 * {@code :causationid}), {@code :consumer}, the whole {@code :data} as JSON text, and fields inside it by path
 * ({@code :data.orderId}, {@code :data.customer.id}, {@code :data.items.0.sku}).
 *
 * <p>JSON strings bind as text, integers as {@code Long} (or {@code BigInteger}), other numbers as {@code BigDecimal}
 * with their exact digits (within {@link io.legacygateway.envelope.BoundedNumbers}' bounds, checked when the envelope
 * is read), booleans as {@code Boolean}, JSON null as SQL NULL, objects and arrays as JSON text. A path
 * that is absent from the event's data makes the event {@link DeadLetterReason#MALFORMED_ENVELOPE malformed} for this
 * consumer.
 */
public final class EnvelopeValues {

    /** Names that are not paths into the data. */
    public static final Set<String> ATTRIBUTES = Set.of("id", "source", "type", "subject", "time", "eventversion",
            "aggregatetype", "correlationid", "causationid", "consumer", "data");
    /** The attributes that {@link #byName} names {@code ce_<attribute>}, as the envelope's JMS properties are named. */
    public static final List<String> CLOUDEVENTS_ATTRIBUTES = List.of("id", "source", "type", "subject", "time",
            "eventversion", "aggregatetype", "correlationid", "causationid");
    private static final Pattern PATH = Pattern.compile("data(\\.[A-Za-z0-9_-]{1,100}){1,10}");

    private EnvelopeValues() {
    }

    /** Whether {@code name} is something {@link #value} can resolve. */
    public static boolean known(String name) {
        return ATTRIBUTES.contains(name) || PATH.matcher(name).matches();
    }

    /**
     * @throws DeadLetterException when a data path is absent from the event
     */
    public static Object value(EventEnvelope e, String consumer, String name) {
        return switch (name) {
            case "id" -> e.id();
            case "source" -> e.source();
            case "type" -> e.type();
            case "subject" -> e.subject();
            case "time" -> e.time() == null ? null : Timestamp.from(e.time());
            case "eventversion" -> e.eventVersion();
            case "aggregatetype" -> e.aggregateType();
            case "correlationid" -> e.correlationId();
            case "causationid" -> e.causationId();
            case "consumer" -> consumer;
            case "data" -> e.data() == null || e.data().isNull() ? null : e.data().toString();
            default -> scalar(node(e, name));
        };
    }

    /**
     * The envelope's values by plain name, for steps that look parameters up in a map (camel-sql's {@code :#amount}):
     * each top-level member of the data by its own name, then the attributes as {@code ce_id}, {@code ce_source},
     * {@code ce_type}, {@code ce_subject}, {@code ce_time}, {@code ce_eventversion}, {@code ce_aggregatetype},
     * {@code ce_correlationid}, {@code ce_causationid} (an attribute wins over a data member of the same name). Values
     * as {@link #value} gives them; an absent attribute or a JSON null is a {@code null} value, present in the map. A
     * read-only view, each value computed when it is asked for.
     */
    public static Map<String, Object> byName(EventEnvelope e) {
        return new EnvelopeByName(e);
    }

    /** The JSON node at a {@code data.} path. */
    public static JsonNode node(EventEnvelope e, String path) {
        JsonNode n = e.data();
        String[] parts = path.split("\\.");
        for (int i = 1; i < parts.length && n != null; i++) {
            n = n.isArray() && parts[i].chars().allMatch(Character::isDigit) ? n.get(Integer.parseInt(parts[i]))
                    : n.get(parts[i]);
        }
        if (n == null || n.isMissingNode()) {
            throw new DeadLetterException(DeadLetterReason.MALFORMED_ENVELOPE, "event " + e.id() + " (" + e.type()
                    + ") has no " + path);
        }
        return n;
    }

    /** A JSON value as a bind value: see the class comment. */
    static Object scalar(JsonNode n) {
        if (n.isNull()) {
            return null;
        }
        if (n.isTextual()) {
            return n.textValue();
        }
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        if (n.isIntegralNumber()) {
            return n.canConvertToLong() ? (Object) n.longValue() : n.bigIntegerValue();
        }
        if (n.isNumber()) {
            return n.decimalValue();
        }
        return n.toString();
    }
}
