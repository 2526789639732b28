package io.legacygateway.relay;

import io.legacygateway.relay.RelayCycle.RelayedRow;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.StartupListener;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.ProcessorDefinition;
import org.apache.camel.support.ExpressionAdapter;

/**
 * The route each cycle of one relay runs through, {@code outbox-relay-<relay>-cycle}: claim → for each claimed row:
 * envelope → filter → transform → steps → versions → event → publish → mark, each a named processor, so that Hawtio's route
 * diagram and statistics show the cycle's steps, the per-event ones counting events ({@code envelope-<relay>} has
 * completed one exchange per claimed row) and {@code publish-<relay>}/{@code mark-<relay>} one per batch. A poll that
 * claims nothing stops after {@code claim-<relay>}. Only configured steps appear; a relay without steps makes its
 * events in one processor per batch, {@code events-<relay>} (no split: nothing happens per event that a route
 * could show).
 *
 * <p>Each processor calls one step of {@link RelayCycleSteps} with the exchange's {@link RelayCycle}; the steps pass
 * their facts on in that cycle, not in the exchange, and the route hands the cycle's outcome back to its caller.
 *
 * <p>The timer route ({@link OutboxRelayTemplate}) runs the drain, which sends one exchange per cycle here from
 * inside the cycle's database transaction; the route runs on that thread ({@code direct:}, and a sequential split
 * where steps are configured), and {@link RelayCycle#requireOwnThread} refuses a step that left it. The route has
 * no error handler: a failure of claim, publish or mark is thrown back to the drain, which rolls the cycle back. A
 * failure of one row's steps is that row's ({@link RelaySteps}).
 *
 * <p>The route is added once the Camel context has started (routes of steps must exist for the startup check of
 * {@link RelaySteps#forbidden}), or, for a relay created later (a route edit), with its first cycle; it is removed
 * when the relay closes.
 */
public final class RelayCycleRoute {

    static final String CYCLE = "relayCycle";

    private final RelayCycleSteps steps;
    private final CamelContext camel;
    private final String name;
    private volatile boolean added;
    private boolean adding;
    private ProducerTemplate producer;

    RelayCycleRoute(RelayCycleSteps steps, CamelContext camel) {
        this.steps = steps;
        this.camel = camel;
        this.name = steps.relay();
    }

    public String routeId() {
        return RelaySettings.ROUTE_PREFIX + name + "-cycle";
    }

    private String uri() {
        return "direct:" + routeId();
    }

    /**
     * Adds the relay's cycle route once the context has started, when the routes of its steps exist and can be
     * checked (a step route that publishes or writes fails the start); when it runs already, checks the steps at once
     * and leaves the route to the first cycle.
     */
    void addOnceStarted() {
        if (camel.isStarted()) {
            // created by a route being created (a route edit): adding a route now would disturb that one's creation,
            // so the route comes with the first cycle; the steps are checked now
            requireAllowedSteps();
            return;
        }
        try {
            // once every route has started: Camel calls onCamelContextStarted while it starts routes, also for those
            // added then, and a route added while the context starts is not started
            camel.addStartupListener(new StartupListener() {
                @Override
                public void onCamelContextStarted(CamelContext c, boolean alreadyStarted) {
                }

                @Override
                public void onCamelContextFullyStarted(CamelContext c, boolean alreadyStarted) {
                    add();
                }
            });
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Adds the route, once, after checking that no step's route publishes or writes.
     *
     * @throws IllegalArgumentException naming the parameter, when one does
     */
    synchronized void add() {
        if (added || adding) {
            return; // adding a route starts it, and Camel calls the startup listeners again while it does
        }
        adding = true;
        try {
            addRoute();
        } finally {
            adding = false;
        }
    }

    private void requireAllowedSteps() {
        List<String> forbidden = steps.events().steps().forbidden(camel);
        if (!forbidden.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", forbidden));
        }
    }

    private void addRoute() {
        requireAllowedSteps();
        try {
            camel.addRoutes(new Builder());
        } catch (Exception e) {
            throw new IllegalStateException("outbox-relay '" + name + "': its cycle route could not be added: " + e, e);
        }
        producer = camel.createProducerTemplate();
        added = true;
    }

    /** Runs one cycle through the route, on this thread, and returns what it did. */
    CycleOutcome run(RelayCycle cycle) {
        if (!added) {
            if (!camel.isStarted()) {
                return CycleOutcome.NOTHING_CLAIMED; // a poll while the context starts: the route comes once it has
            }
            add();
        }
        Exchange done = producer.send(uri(), exchange -> {
            exchange.setProperty(CYCLE, cycle);
            exchange.getMessage().setBody(cycle);
        });
        Exception failure = done.getException();
        if (failure != null) {
            throw failure instanceof RuntimeException r ? r : new IllegalStateException(failure.toString(), failure);
        }
        return cycle.outcome;
    }

    synchronized void close() {
        if (!added) {
            return;
        }
        added = false;
        try {
            producer.close();
            if (!camel.isStopping() && !camel.isStopped() && camel.getRoute(routeId()) != null) {
                camel.getRouteController().stopRoute(routeId());
                camel.removeRoute(routeId());
            }
        } catch (Exception e) {
            throw new IllegalStateException("outbox-relay '" + name + "': its cycle route could not be removed: " + e,
                    e);
        }
    }

    private static RelayCycle cycle(Exchange exchange) {
        return exchange.getProperty(CYCLE, RelayCycle.class);
    }

    private static RelayedRow row(Exchange exchange) {
        return exchange.getMessage().getBody() instanceof RelayedRow r ? r
                : exchange.getProperty(RowsExpression.ROW, RelayedRow.class);
    }

    /** The claimed rows, for the split; each sub-exchange also keeps its row as a property, as steps replace the body. */
    private static final class RowsExpression extends ExpressionAdapter {
        static final String ROW = "relayedRow";

        @Override
        public Object evaluate(Exchange exchange) {
            return cycle(exchange).rows();
        }
    }

    private final class Builder extends RouteBuilder {

        Builder() {
            super(camel);
        }

        @Override
        public void configure() {
            EventsOfACycle events = steps.events();
            RelaySteps configured = events.steps();
            ProcessorDefinition<?> claimed = from(uri()).routeId(routeId())
                    .routeDescription("Outbox relay " + name + ": one cycle, claim -> each event's steps -> publish"
                            + " -> mark, in one database transaction")
                    .errorHandler(noErrorHandler())
                    .process(x -> {
                        if (!steps.claim(cycle(x))) {
                            x.setRouteStop(true); // nothing claimed: an idle poll ends here
                        }
                    }).id("claim-" + name);
            ProcessorDefinition<?> made;
            if (configured.none()) {
                // nothing to show per event: no split, whose exchange per row costs CPU per event (architecture.md,
                // "Decisions")
                made = claimed.process(x -> events.envelopeAll(cycle(x))).id("events-" + name);
            } else {
                made = eachEvent(claimed.split(new RowsExpression()).id("each-event-" + name), events, configured);
            }
            made.process(x -> steps.publish(cycle(x))).id("publish-" + name)
                    .process(x -> steps.mark(cycle(x))).id("mark-" + name);
        }

        /** The split's per-event processors, one per configured step; returns the route after the split. */
        private ProcessorDefinition<?> eachEvent(ProcessorDefinition<?> each, EventsOfACycle events,
                                                 RelaySteps configured) {
            ProcessorDefinition<?> event = each.process(x -> {
                RelayedRow r = x.getMessage().getBody(RelayedRow.class);
                x.setProperty(RowsExpression.ROW, r);
                events.envelope(r, cycle(x), x);
            }).id("envelope-" + name);
            if (configured.filter() != null) {
                event = event.process(x -> configured.filter(row(x), x)).id("filter-" + name);
            }
            if (configured.transform() != null) {
                event = event.process(x -> configured.transform(row(x), x)).id("transform-" + name);
            }
            if (configured.route() != null) {
                event = event.process(x -> configured.route(row(x), x)).id("steps-" + name);
            }
            if (configured.copies()) {
                event = event.process(x -> configured.copy(row(x), x)).id("versions-" + name);
            }
            return event.process(x -> events.settle(row(x), cycle(x), x)).id("event-" + name).end();
        }
    }
}
