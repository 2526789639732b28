package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.mapping.OutboxColumn;
import io.legacygateway.config.TemplateParameters;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.camel.RouteTemplateContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.RouteTemplateDefinition;
import org.apache.camel.spi.RoutePolicy;

/**
 * The {@code outbox-relay} route template: a timer that runs one {@link OutboxRelay} (and, with {@code wakeUp: NOTIFY},
 * a route policy that runs it on a notification too, {@link OutboxWakeUp}). Instantiated from YAML
 * ({@code templatedRoute} with {@code routeTemplateRef: outbox-relay}); every parameter is listed in
 * {@link RelayParameters} and {@link OutboxColumn}.
 *
 * <p>The timer's processor, {@code drain-<relay>}, runs cycles while they return full batches; each cycle runs in one
 * database transaction through the relay's cycle route ({@link RelayCycleRoute}: claim, each event's envelope and
 * steps, publish, mark), which is where Hawtio shows the steps and counts events. Why the cycle's steps are the
 * relay's processors and not camel-sql and camel-jms endpoints: the mark must commit in the claim's database
 * transaction and only after the broker's commit returned. The camel-sql consumer marks rows even when a handled error
 * swallowed the send, and a JMS producer inside a database transaction commits after the database, the wrong way
 * round.
 */
public class OutboxRelayTemplate extends RouteBuilder {

    public static final String TEMPLATE = "outbox-relay";
    public static final String ROUTE_PREFIX = "outbox-relay-";

    private final OutboxRelayFactory factory;
    /** The relay of each route being created: its beans share the one parse of the parameters. */
    private final Map<RouteTemplateContext, OutboxRelay> created = Collections.synchronizedMap(new WeakHashMap<>());

    public OutboxRelayTemplate(OutboxRelayFactory factory) {
        this.factory = factory;
    }

    @Override
    public void configure() {
        RouteTemplateDefinition template = routeTemplate(TEMPLATE);
        for (TemplateParameters.Definition p : TemplateParameters.definitions(RelayParameters.class)) {
            if (p.required() || (p.defaultValue() != null && !p.defaultValue().isEmpty())) {
                template.templateParameter(p.key(), p.defaultValue(), p.description());
            } else {
                template.templateOptionalParameter(p.key(), p.description());
            }
        }
        for (OutboxColumn c : OutboxColumn.values()) {
            template.templateOptionalParameter(c.parameter(),
                    c.description() + " (default " + c.defaultName() + (c.required() ? "" : ", or none") + ")");
            if (c.valueParameter() != null) {
                template.templateOptionalParameter(c.valueParameter(), "the " + c.description()
                        + " as a constant or template instead of " + c.parameter());
            }
        }
        // the timer gets the poll interval as parsed by RelaySettings, in milliseconds (a Long bean), not its text
        template.templateBean("relayProcessor", OutboxRelay.class, this::relay)
                .templateBean("relayPollMillis", Long.class, rtc -> relay(rtc).settings().pollInterval().toMillis())
                // wakeUp NOTIFY: a listener that runs this route's processor when the outbox signals (OutboxWakeUp)
                .templateBean("relayWakeUp", RoutePolicy.class, rtc -> factory.wakeUp(relay(rtc)))
                .from("timer:" + ROUTE_PREFIX + "{{relay}}?period=#{{relayPollMillis}}&delay=#{{relayPollMillis}}")
                .routePolicyRef("{{relayWakeUp}}")
                .routeDescription("Outbox relay {{relay}}: polls, and drains through route outbox-relay-{{relay}}-cycle")
                .process("#{{relayProcessor}}").id("drain-{{relay}}");
    }

    private OutboxRelay relay(RouteTemplateContext rtc) {
        return created.computeIfAbsent(rtc, r -> factory.create(r.getParameters()));
    }
}
