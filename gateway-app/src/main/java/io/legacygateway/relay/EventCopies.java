package io.legacygateway.relay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.legacygateway.adapters.Failures;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.relay.RelayCycle.RelayedRow;
import io.legacygateway.steps.EventStep;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Message;

/**
 * {@code alsoPublish}: each event of a relay once more per entry, as another version, to another destination, with
 * the same event id (consumers' inboxes deduplicate by it, per consumer) and the same attributes. The row is marked
 * only when the broker confirmed the event and every copy ({@link RelayCycle#done}); a copy that cannot be made
 * rejects the row, and a copy the broker refuses charges the row once. A resend after a crash resends every copy with
 * the same content, which the broker's duplicate detection drops per address.
 */
final class EventCopies {

    private final List<StepSettings.Copy> copies;
    private final EnvelopeCodec codec;

    EventCopies(List<StepSettings.Copy> declared, EnvelopeCodec codec, CamelContext camel) {
        this.codec = codec;
        List<StepSettings.Copy> c = new ArrayList<>();
        for (StepSettings.Copy copy : declared) {
            // one compiled step per version: two destinations of one version share it
            EventStep step = c.stream().filter(x -> x.version() == copy.version()).map(StepSettings.Copy::step)
                    .findFirst().orElseGet(() -> copy.step().compile(camel));
            c.add(new StepSettings.Copy(copy.version(), copy.destination(), step));
        }
        this.copies = List.copyOf(c);
    }

    boolean none() {
        return copies.isEmpty();
    }

    List<EventStep> steps() {
        return copies.stream().map(StepSettings.Copy::step).distinct().toList();
    }

    /**
     * {@code alsoPublish}: the sealed event once more per entry, as that version (its {@code asVersion.<version>} step
     * applied to the event's data, unless the event is of that version already), to that entry's destination, with
     * the event's id and attributes. A step that fails rejects the row: none of its events is sent.
     */
    void copy(RelayedRow item, Exchange exchange) {
        if (!item.open()) {
            return;
        }
        OutboundEvent event = item.event();
        EventEnvelope env = event.envelope();
        String data = dataText(event);
        List<OutboundEvent> made = new ArrayList<>(copies.size());
        for (StepSettings.Copy c : copies) {
            JsonNode shaped = env.data();
            if (c.version() != env.eventVersion()) {
                Message m = exchange.getMessage();
                m.setBody(data);
                m.setHeader(EnvelopeMessages.EVENT_VERSION, env.eventVersion());
                m.setHeader(EnvelopeMessages.TYPE, env.type());
                try {
                    shaped = StepOutput.data(codec, c.step().apply(exchange), true, exchange);
                } catch (Exception e) {
                    item.reject(c.step().parameter() + " (" + c.step() + ") failed: " + Failures.describe(e));
                    return;
                }
                if (shaped == null) {
                    item.reject(c.step().parameter() + " (" + c.step() + "): no data left (empty body)");
                    return;
                }
            } else if (shaped == null) {
                shaped = dataOf(event);
            }
            String address = c.destination().resolve(env.type(), env.aggregateType());
            if (address == null) {
                item.reject("alsoPublish: destination '" + c.destination() + "' gives an unsafe address for event"
                        + " type '" + env.type() + "'");
                return;
            }
            EventEnvelope copy = new EventEnvelope(env.envelopeVersion(), env.id(), env.source(), env.type(),
                    env.subject(), env.time(), shaped.isTextual() && !EventEnvelope.JSON.equals(env.dataContentType())
                            ? EventEnvelope.TEXT : EventEnvelope.JSON, c.version(), env.aggregateType(),
                    env.correlationId(), env.causationId(), env.traceparent(), shaped);
            made.add(new OutboundEvent(event.row(), copy, codec.write(copy), address, c.destination().topic()));
        }
        item.copies(List.copyOf(made));
    }

    /** The event's data as a step sees it: the JSON text, or the text of a text payload. */
    private String dataText(OutboundEvent event) {
        JsonNode data = event.envelope().data();
        if (data == null) {
            return event.row().payload(); // made from the row, unshaped: the payload is the data
        }
        return data.isTextual() ? data.asText() : data.toString();
    }

    /** The data of an event made from the row, unshaped (its JSON payload was copied into the text only). */
    private JsonNode dataOf(OutboundEvent event) {
        try {
            return codec.parseJson(event.row().payload());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON payload that was sent does not parse: " + e, e);
        }
    }
}
