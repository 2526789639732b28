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
 * The steps of one relay ({@code filter}, {@code transform}, {@code steps}), run on each event of a cycle, in that
 * order, after its envelope was made and before the batch is published, inside the cycle's transaction and thread.
 *
 * <p>What a step sees, on the exchange of the cycle route's split: the body is the event's data (the payload's text:
 * JSON, or the text of a {@code TEXT} payload such as XML); headers {@code ce_id}, {@code ce_type},
 * {@code ce_subject}, {@code ce_eventversion}, {@code ce_aggregatetype}, {@code ce_datacontenttype} and
 * {@value #DESTINATION} (the resolved {@code queue:}/{@code topic:} address); exchange property {@value #ROW} the
 * claimed row with its mapped columns ({@code ${exchangeProperty.outboxRow.aggregateId}}).
 *
 * <p>What a step may change: the body (the new data: JSON text, a JSON tree or a map with content type
 * {@code application/json}, else text), {@code ce_type}, {@code ce_eventversion}, {@code ce_datacontenttype},
 * {@value #DESTINATION} ({@code queue:<name>} or {@code topic:<name>}; left alone, the relay's {@code destination}
 * is resolved again with the new type). It drops the event with a false {@code filter} or by setting header
 * {@value #DROP} to the reason: the row is marked done with that reason in the attempt log, and counted
 * ({@code gateway_outbox_filtered_total}). A step that throws, or leaves an event that cannot be sent, rejects that row
 * only: it is charged a failed attempt with the error as its reason (retried, then parked FAILED); the batch goes on.
 *
 * <p>{@code alsoPublish} then copies each event into other versions, to other destinations ({@link EventCopies}).
 *
 * <p>Steps may run again for the same row (a retry, a crash before the mark): they must not publish or write, which
 * the relay checks in their routes at startup ({@link EventStep#forbiddenSteps}).
 */
final class RelaySteps {

    /** Header: set by a step to drop the event; its value is the reason. */
    static final String DROP = "gw_drop";
    /** Header: the event's destination, {@code queue:<name>} or {@code topic:<name>}. */
    static final String DESTINATION = "gw_destination";
    static final String DATA_CONTENT_TYPE = "ce_datacontenttype";
    /** Exchange property: the claimed {@link io.legacygateway.adapters.outbox.mapping.OutboxRow}. */
    static final String ROW = "outboxRow";

    private final RelaySettings settings;
    private final EnvelopeCodec codec;
    private final EventStep filter;
    private final EventStep transform;
    private final EventStep route;
    private final EventCopies copies;

    RelaySteps(RelaySettings settings, EnvelopeCodec codec, CamelContext camel) {
        this.settings = settings;
        this.codec = codec;
        StepSettings s = settings.steps();
        this.filter = s.filter() == null ? null : s.filter().compile(camel);
        this.transform = s.transform() == null ? null : s.transform().compile(camel);
        this.route = s.route() == null ? null : s.route().compile(camel);
        this.copies = new EventCopies(s.copies(), codec, camel);
    }

    boolean none() {
        return filter == null && transform == null && route == null && copies.none();
    }

    boolean copies() {
        return !copies.none();
    }

    /** {@code alsoPublish}: the sealed event once more per entry ({@link EventCopies}). */
    void copy(RelayedRow item, Exchange exchange) {
        seal(item, exchange);
        copies.copy(item, exchange);
    }

    EventStep filter() {
        return filter;
    }

    EventStep transform() {
        return transform;
    }

    EventStep route() {
        return route;
    }

    /** What each step's route does that a step must not: publish or write. Call once the routes exist. */
    List<String> forbidden(CamelContext camel) {
        List<String> found = new ArrayList<>();
        List<EventStep> all = new ArrayList<>();
        all.add(transform);
        all.add(route);
        all.addAll(copies.steps());
        for (EventStep step : all) {
            if (step != null) {
                found.addAll(step.forbiddenSteps(camel));
            }
        }
        return found.stream().distinct().toList();
    }

    /** Puts the event on the exchange as the steps see it. */
    static void expose(RelayedRow item, Exchange exchange) {
        OutboundEvent e = item.event();
        EventEnvelope env = e.envelope();
        Message m = exchange.getMessage();
        m.setBody(e.row().payload());
        m.setHeader(EnvelopeMessages.ID, env.id());
        m.setHeader(EnvelopeMessages.TYPE, env.type());
        m.setHeader(EnvelopeMessages.SUBJECT, env.subject());
        m.setHeader(EnvelopeMessages.EVENT_VERSION, env.eventVersion());
        m.setHeader(EnvelopeMessages.AGGREGATE_TYPE, env.aggregateType());
        m.setHeader(DATA_CONTENT_TYPE, env.dataContentType());
        m.setHeader(DESTINATION, (e.topic() ? "topic:" : "queue:") + e.address());
        exchange.setProperty(ROW, e.row());
    }

    /** {@code filter}: whether the event goes on; a false one is dropped with {@code filterReason}. */
    void filter(RelayedRow item, Exchange exchange) {
        run(item, filter, () -> {
            if (!filter.matches(exchange)) {
                item.drop(settings.steps().filterReason());
            }
        });
    }

    void transform(RelayedRow item, Exchange exchange) {
        run(item, transform, () -> exchange.getMessage().setBody(transform.apply(exchange)));
    }

    void route(RelayedRow item, Exchange exchange) {
        run(item, route, () -> {
            route.apply(exchange);
            Object drop = exchange.getMessage().getHeader(DROP);
            if (drop != null && !drop.toString().isBlank()) {
                String reason = drop.toString().strip();
                item.drop(reason.length() > 64 ? reason.substring(0, 64) : reason); // a metric tag: kept short
            }
        });
    }

    private interface Body {
        void run() throws Exception;
    }

    /** A step that throws rejects its row, with the error as the reason: one row's failure, never the cycle's. */
    private static void run(RelayedRow item, EventStep step, Body body) {
        if (!item.open()) {
            return;
        }
        try {
            body.run();
        } catch (Exception e) {
            item.reject(step.parameter() + " (" + step + ") failed: " + Failures.describe(e));
        }
    }

    /**
     * The event as the steps left it: the same event when they changed nothing, else a new envelope; the row is
     * rejected when what they left cannot be sent.
     */
    void seal(RelayedRow item, Exchange exchange) {
        if (!item.open() || item.sealed()) {
            return;
        }
        item.sealed(true);
        OutboundEvent before = item.event();
        EventEnvelope env = before.envelope();
        Message m = exchange.getMessage();
        Object body = m.getBody();
        String type = text(m.getHeader(EnvelopeMessages.TYPE));
        String contentType = text(m.getHeader(DATA_CONTENT_TYPE));
        String destination = text(m.getHeader(DESTINATION));
        Integer version = version(m.getHeader(EnvelopeMessages.EVENT_VERSION));
        String current = (before.topic() ? "topic:" : "queue:") + before.address();
        if (body == before.row().payload() && env.type().equals(type) && env.eventVersion().equals(version)
                && env.dataContentType().equals(contentType) && current.equals(destination)) {
            return; // nothing changed: the envelope made from the row is sent as it is
        }
        if (type == null || type.isBlank() || type.length() > 255) {
            item.reject("steps: ce_type '" + type + "' is not an event type");
            return;
        }
        if (version == null) {
            item.reject("steps: ce_eventversion '" + m.getHeader(EnvelopeMessages.EVENT_VERSION)
                    + "' is not an integer >= 1");
            return;
        }
        JsonNode data;
        try {
            data = StepOutput.data(codec, body, EventEnvelope.JSON.equals(contentType), exchange);
        } catch (JsonProcessingException e) {
            item.reject("steps: the data is not valid JSON for " + EventEnvelope.JSON + " (" + e.getOriginalMessage()
                    + ")");
            return;
        }
        if (data == null) {
            item.reject("steps: no data left (empty body)");
            return;
        }
        Destination target = current.equals(destination) ? settings.destination() : parse(destination, item);
        if (target == null) {
            return;
        }
        String address = target.resolve(type, env.aggregateType());
        if (address == null) {
            item.reject("steps: destination '" + destination + "' gives an unsafe address for event type '" + type
                    + "'");
            return;
        }
        EventEnvelope shaped = new EventEnvelope(env.envelopeVersion(), env.id(), env.source(), type, env.subject(),
                env.time(), data.isTextual() && !EventEnvelope.JSON.equals(contentType) ? EventEnvelope.TEXT
                        : EventEnvelope.JSON, version,
                env.aggregateType(), env.correlationId(), env.causationId(), env.traceparent(), data);
        item.shaped(new OutboundEvent(before.row(), shaped, codec.write(shaped), address, target.topic()));
    }

    private static Destination parse(String destination, RelayedRow item) {
        try {
            return Destination.parse(DESTINATION, destination);
        } catch (IllegalArgumentException e) {
            item.reject("steps: " + e.getMessage());
            return null;
        }
    }

    private static String text(Object header) {
        return header == null ? null : header.toString();
    }

    private static Integer version(Object raw) {
        if (raw instanceof Integer i) {
            return i >= 1 ? i : null;
        }
        try {
            int v = Integer.parseInt(String.valueOf(raw).strip());
            return v >= 1 ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
