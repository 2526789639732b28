package io.legacygateway.relay;

import io.legacygateway.tracing.GatewayTracing;
import io.micrometer.tracing.Span;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code publish} spans of one cycle's batch, one per event, made only while traces are on
 * ({@link GatewayTracing#on}): each started before the batch is sent, its context the message's {@code traceparent}
 * property ({@link EventPublisher.Traceparents}), and ended with the broker's answer for its event. The cycle's
 * {@code relay cycle} span is made with them (a cycle that publishes nothing has none).
 */
final class PublishSpans implements EventPublisher.Traceparents {

    private final Map<OutboundEvent, Span> spans = new IdentityHashMap<>();
    private final Map<OutboundEvent, String> traceparents = new IdentityHashMap<>();

    private PublishSpans() {
    }

    /** The spans of {@code c}'s events, and its cycle span ({@link RelayCycle#trace}); none when traces are off. */
    static EventPublisher.Traceparents start(GatewayTracing tracing, RelayCycle c, String relay, int batchSize) {
        if (!tracing.on() || c.events.isEmpty()) {
            return EventPublisher.Traceparents.NONE;
        }
        c.trace = tracing.cycle(relay, batchSize, c.events.size(), c.now);
        PublishSpans s = new PublishSpans();
        for (OutboundEvent e : c.events) {
            Span span = tracing.publish(c.trace, relay, e.envelope().traceparent(), e.envelope().id(),
                    e.envelope().type(), e.address());
            s.spans.put(e, span);
            s.traceparents.put(e, tracing.traceparent(span));
        }
        return s;
    }

    @Override
    public String of(OutboundEvent event) {
        return traceparents.get(event);
    }

    /** Ends each span with its event's answer: confirmed (or already held), refused (an error), or deferred. */
    static void answered(EventPublisher.Traceparents traces, PublishResult result) {
        if (!(traces instanceof PublishSpans s)) {
            return;
        }
        end(s, result.duplicates(), "duplicate");
        end(s, result.confirmed(), "confirmed");
        end(s, result.deferred(), "deferred");
        for (PublishResult.Refusal r : result.refused()) {
            Span span = s.spans.remove(r.event());
            if (span != null) {
                span.tag("gateway.publish.outcome", "refused").error(new PublishException(r.reason(), null)).end();
            }
        }
        s.spans.values().forEach(span -> span.tag("gateway.publish.outcome", "not sent").end());
        s.spans.clear();
    }

    /** Ends every span with {@code failure}: the broker did not answer, nothing of the batch is marked. */
    static void failed(EventPublisher.Traceparents traces, Throwable failure) {
        if (traces instanceof PublishSpans s) {
            s.spans.values().forEach(span -> span.error(failure).end());
            s.spans.clear();
        }
    }

    private static void end(PublishSpans s, List<OutboundEvent> events, String outcome) {
        for (OutboundEvent e : events) {
            Span span = s.spans.remove(e);
            if (span != null) {
                span.tag("gateway.publish.outcome", outcome).end();
            }
        }
    }
}
