package io.legacygateway.tracing;

import io.micrometer.tracing.Link;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The gateway's spans (docs/operations.md#traces): {@code relay cycle}, {@code publish} and {@code inbox apply}, and
 * the W3C {@code traceparent} that carries a publish span's context to the consumer.
 *
 * <p>{@link #OFF} unless a span exporter is configured ({@link TracingConfiguration}): then {@link #on()} is false and
 * callers do no per-event span work at all (they test {@code on()} once per cycle or batch; every method here also
 * answers {@link Span#NOOP} or {@code null} when off).
 *
 * <p>Guaranteed: a span never changes what the relay or the inbox does; it is ended on every path its caller takes,
 * with an error status when the work failed. Not guaranteed: that a span is exported (the sampler decides, and the
 * exporter drops spans it cannot send), nor that a parent received as text is valid (an invalid one starts a new
 * trace).
 */
public final class GatewayTracing {

    /** The W3C trace-context field, also the JMS property name the relay sets and the inbox reads. */
    public static final String TRACEPARENT = "traceparent";

    /** No spans, no work. */
    public static final GatewayTracing OFF = new GatewayTracing(null, null);

    private static final Propagator.Getter<String> TRACEPARENT_ONLY = (value, key) ->
            TRACEPARENT.equals(key) ? value : null;

    private final Tracer tracer;
    private final Propagator propagator;

    private GatewayTracing(Tracer tracer, Propagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    /** Spans of {@code tracer}, parents read and written by {@code propagator} (W3C trace context). */
    public static GatewayTracing of(Tracer tracer, Propagator propagator) {
        return new GatewayTracing(tracer, propagator);
    }

    /** Whether spans are made: callers skip all span work when not. */
    public boolean on() {
        return tracer != null;
    }

    /**
     * A {@code relay cycle} span, started at {@code started} (the cycle's start: it is only made once the cycle has
     * events to publish), a root of its own trace. The caller ends it after the cycle's transaction.
     */
    public Span cycle(String relay, int batchSize, int events, Instant started) {
        if (!on()) {
            return Span.NOOP;
        }
        return tracer.spanBuilder().setNoParent().name("relay cycle")
                .tag("gateway.relay", relay)
                .tag("gateway.relay.batch_size", batchSize)
                .tag("gateway.relay.events", events)
                .startTimestamp(started.getEpochSecond() * 1_000_000L + started.getNano() / 1_000,
                        TimeUnit.MICROSECONDS)
                .start();
    }

    /**
     * A {@code publish} span for one event of {@code cycle}: a child of the outbox row's {@code traceparent} (the
     * legacy application's trace goes on) with a link to the cycle span; without one, a child of the cycle span.
     *
     * @param traceparent the envelope's {@code traceparent} (the row's), {@code null} when it has none
     */
    public Span publish(Span cycle, String relay, String traceparent, String eventId, String type, String address) {
        if (!on()) {
            return Span.NOOP;
        }
        Span.Builder b = traceparent == null ? tracer.spanBuilder().setParent(cycle.context())
                : propagator.extract(traceparent, TRACEPARENT_ONLY).addLink(new Link(cycle.context()));
        return b.name("publish").kind(Span.Kind.PRODUCER)
                .tag("gateway.relay", relay)
                .tag("messaging.system", "activemq")
                .tag("messaging.destination.name", address)
                .tag("messaging.message.id", eventId)
                .tag("cloudevents.event_type", type)
                .start();
    }

    /**
     * An {@code inbox apply} span for one message: a child of the message's {@code traceparent} property (the publish
     * span) when it has one, else of the envelope's {@code traceparent}, else a new trace.
     */
    public Span apply(String consumer, String messageTraceparent, String envelopeTraceparent, String eventId,
                      String type) {
        if (!on()) {
            return Span.NOOP;
        }
        String parent = messageTraceparent != null ? messageTraceparent : envelopeTraceparent;
        Span.Builder b = parent == null ? tracer.spanBuilder().setNoParent()
                : propagator.extract(parent, TRACEPARENT_ONLY);
        b.name("inbox apply").kind(Span.Kind.CONSUMER).tag("gateway.inbox", consumer);
        if (eventId != null) {
            b.tag("messaging.message.id", eventId);
        }
        if (type != null) {
            b.tag("cloudevents.event_type", type);
        }
        return b.start();
    }

    /** The W3C {@code traceparent} of {@code span}; {@code null} when off or when the propagator writes none. */
    public String traceparent(Span span) {
        if (!on() || span.isNoop()) {
            return null;
        }
        Map<String, String> fields = new HashMap<>(4);
        propagator.inject(span.context(), fields, Map::put);
        return fields.get(TRACEPARENT);
    }
}
