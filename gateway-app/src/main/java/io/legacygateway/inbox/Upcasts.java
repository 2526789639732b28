package io.legacygateway.inbox;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.legacygateway.adapters.Failures;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.steps.EventStep;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultExchange;

/**
 * The versioned contracts of one consumer: for each type with {@code upcast.<Type>.<version>} steps, the chain that
 * turns the data of every accepted version below the current one (the highest accepted) into the data of the current
 * version, one version at a time, so that the type's effect is written once, for the current version.
 *
 * <p>Guaranteed: an event of an older accepted version reaches its effect with the upcast data and
 * {@code eventversion} = the current version; the effect runs once (the inbox decides, as for any event). An upcast
 * that throws, or whose value is not JSON data, dead-letters its message at once as
 * {@link DeadLetterReason#UPCAST_FAILED}: the same data would fail the same way again. Not guaranteed: that an upcast
 * runs once. It runs in the inbox transaction, before the effect, and runs again when that transaction is retried or
 * the message redelivered, so it must be a pure function of the event. An event of a type without upcasts, or of the
 * current version, passes unchanged and costs no Camel exchange.
 */
final class Upcasts {

    // as the envelope codec reads: numbers keep their exact digits
    private static final ObjectMapper JSON = JsonMapper.builder()
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
    static final Upcasts NONE = new Upcasts(null, Map.of(), Map.of());

    /** One step of a chain and its counter ({@code gateway_inbox_upcast_total{consumer,type,from}}). */
    private record Link(EventStep step, Counter counter) {
    }

    private final CamelContext camel;
    /** Per type, the step of each version below the current one. */
    private final Map<String, Map<Integer, Link>> chains;
    private final Map<String, Integer> current;

    private Upcasts(CamelContext camel, Map<String, Map<Integer, Link>> chains, Map<String, Integer> current) {
        this.camel = camel;
        this.chains = chains;
        this.current = current;
    }

    /** Compiles the steps of {@code settings} (an expression that does not compile fails here, naming it). */
    static Upcasts compile(InboxSettings settings, CamelContext camel, MeterRegistry meters) {
        if (settings.upcasts().isEmpty()) {
            return NONE;
        }
        Map<String, Map<Integer, Link>> chains = new HashMap<>();
        Map<String, Integer> current = new HashMap<>();
        for (InboxSettings.Upcast u : settings.upcasts()) {
            EventStep step = EventStep.parse(InboxSettings.label(settings.consumer(), u.parameter()), u.step(), false)
                    .compile(camel);
            Counter counter = counter(meters, settings.consumer(), u.type(), u.from());
            chains.computeIfAbsent(u.type(), t -> new HashMap<>()).put(u.from(), new Link(step, counter));
            current.put(u.type(), settings.accept().versions().get(u.type()).stream()
                    .mapToInt(Integer::intValue).max().orElseThrow());
        }
        return new Upcasts(camel, Map.copyOf(chains), Map.copyOf(current));
    }

    /**
     * {@code gateway_inbox_upcast_total{consumer,type,from}}: upcasts of {@code type}'s data from version {@code from}
     * to the next one that succeeded (also those of a transaction that then rolled back and ran again).
     */
    private static Counter counter(MeterRegistry meters, String consumer, String type, int from) {
        return Counter.builder("gateway.inbox.upcast")
                .description("Event data upcast from one version to the next before the effect")
                .tag("consumer", consumer).tag("type", type).tag("from", Integer.toString(from)).register(meters);
    }

    /** One sentence per step of a {@code direct:} upcast route that publishes or writes; call once routes exist. */
    List<String> forbiddenSteps() {
        List<String> found = new ArrayList<>();
        chains.values().forEach(c -> c.values().forEach(l -> found.addAll(l.step().forbiddenSteps(camel))));
        return found;
    }

    /**
     * The envelope its effect gets: {@code envelope} itself when its type has no upcasts or it is of the current
     * version, else a copy with the data upcast to the current version and that version.
     *
     * @throws DeadLetterException {@link DeadLetterReason#UPCAST_FAILED}: a step threw or its value is no JSON data
     */
    EventEnvelope apply(EventEnvelope envelope) {
        Map<Integer, Link> chain = chains.get(envelope.type());
        if (chain == null || envelope.eventVersion() == null) {
            return envelope;
        }
        int target = current.get(envelope.type());
        if (envelope.eventVersion() >= target) {
            return envelope;
        }
        Exchange exchange = new DefaultExchange(camel);
        JsonNode data = envelope.data();
        for (int v = envelope.eventVersion(); v < target; v++) {
            Link link = chain.get(v);
            exchange.getIn().setBody(data == null ? "null" : data.toString());
            exchange.getIn().setHeader(EnvelopeMessages.ID, envelope.id());
            exchange.getIn().setHeader(EnvelopeMessages.TYPE, envelope.type());
            exchange.getIn().setHeader(EnvelopeMessages.SUBJECT, envelope.subject());
            exchange.getIn().setHeader(EnvelopeMessages.EVENT_VERSION, v);
            Object value;
            try {
                value = link.step().apply(exchange);
            } catch (Exception e) {
                throw failed(link, envelope, v, "threw " + Failures.describe(e), e);
            }
            data = json(value, link, envelope, v);
            link.counter().increment();
        }
        return new EventEnvelope(envelope.envelopeVersion(), envelope.id(), envelope.source(), envelope.type(),
                envelope.subject(), envelope.time(), envelope.dataContentType(), target, envelope.aggregateType(),
                envelope.correlationId(), envelope.causationId(), envelope.traceparent(), data);
    }

    /** A step's value as the event's data: a JSON node, JSON text (or its UTF-8 bytes), a map or a list. */
    private static JsonNode json(Object value, Link link, EventEnvelope envelope, int from) {
        try {
            JsonNode node = null;
            if (value instanceof JsonNode n) {
                node = n;
            } else if (value instanceof String s) {
                node = JSON.readTree(s);
            } else if (value instanceof byte[] b) {
                node = JSON.readTree(new String(b, StandardCharsets.UTF_8));
            } else if (value instanceof Map<?, ?> || value instanceof Collection<?>) {
                node = JSON.valueToTree(value);
            }
            if (node == null || node.isMissingNode()) {
                throw failed(link, envelope, from, "yielded " + (value == null ? "nothing"
                        : "a " + value.getClass().getSimpleName()) + ", not JSON data", null);
            }
            return node;
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            throw failed(link, envelope, from, "yielded text that is not JSON: " + Failures.describe(e), e);
        }
    }

    private static DeadLetterException failed(Link link, EventEnvelope envelope, int from, String what,
                                              Throwable cause) {
        return new DeadLetterException(DeadLetterReason.UPCAST_FAILED, link.step().parameter() + " (version " + from
                + " to " + (from + 1) + ") " + what + " for event " + envelope.id() + " of " + envelope.subject(),
                cause);
    }
}
