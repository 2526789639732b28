package io.legacygateway.reload;

import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.inbox.InboxConsumerTemplate;
import io.legacygateway.inbox.InboxSettings;
import io.legacygateway.relay.OutboxRelayTemplate;
import io.legacygateway.relay.RelaySettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.camel.model.TemplatedRouteDefinition;
import org.apache.camel.model.TemplatedRouteParameterDefinition;

/**
 * The check of an edited route file's {@code templatedRoute}s before anything of it is applied: each
 * {@code outbox-relay} and {@code inbox-consumer} is parsed as at startup ({@link RelaySettings#parse},
 * {@link InboxSettings#parse}: the required parameters, unknown parameter names refused, every value validated), and
 * its relay or consumer name must not be one that another running route uses.
 *
 * <p>Not checked here, because it needs the databases and the broker: what the relay or consumer factory finds there
 * (the table and its columns, the broker's dead-letter settings). A change that fails those is refused when its route
 * is created; {@link RouteEdits} then starts the old route again.
 */
final class RouteEditCheck {

    /** What a running template instance is, as its route's template parameters say. */
    record Instance(String template, String name) {

        /** The template and name of a route made from the {@code outbox-relay} or {@code inbox-consumer} template. */
        static Instance of(Map<String, Object> parameters) {
            if (parameters == null) {
                return null;
            }
            if (parameters.get("relay") != null) {
                return new Instance(OutboxRelayTemplate.TEMPLATE, parameters.get("relay").toString());
            }
            if (parameters.get("consumer") != null) {
                return new Instance(InboxConsumerTemplate.TEMPLATE, parameters.get("consumer").toString());
            }
            return null;
        }
    }

    private final GatewayProperties properties;
    private final GatewayDataSources dataSources;

    RouteEditCheck(GatewayProperties properties, GatewayDataSources dataSources) {
        this.properties = properties;
        this.dataSources = dataSources;
    }

    /**
     * What is wrong with {@code routes}, one entry per refused route ({@code route 'id': <the parse's message>});
     * empty when every one of them may replace its running route.
     *
     * @param running the running relays and consumers by route id
     */
    List<String> problems(List<TemplatedRouteDefinition> routes, Map<String, Instance> running) {
        List<String> problems = new ArrayList<>();
        Set<String> edited = routes.stream().map(TemplatedRouteDefinition::getRouteId).filter(Objects::nonNull)
                .collect(Collectors.toSet());
        Map<String, String> namesInFile = new LinkedHashMap<>();
        for (TemplatedRouteDefinition route : routes) {
            String id = route.getRouteId() == null ? "(no routeId)" : route.getRouteId();
            try {
                Instance instance = parse(route);
                if (instance == null) {
                    continue; // a template of the file itself: Camel checks it as it creates the route
                }
                String other = namesInFile.putIfAbsent(instance.template() + "/" + instance.name(), id);
                if (other != null) {
                    throw new IllegalArgumentException(instance.template() + " '" + instance.name() + "' is"
                            + " defined twice in the file (routes '" + other + "' and '" + id + "')");
                }
                running.forEach((runningId, r) -> {
                    if (r.equals(instance) && !edited.contains(runningId)) {
                        throw new IllegalArgumentException(instance.template() + " '" + instance.name() + "': the"
                                + " name is used by the running route '" + runningId + "'"
                                + (route.getRouteId() == null ? "; give this route a routeId" : ""));
                    }
                });
            } catch (IllegalArgumentException e) {
                problems.add("route '" + id + "': " + e.getMessage());
            }
        }
        return problems;
    }

    /** The route's settings parsed as at startup; {@code null} for a template other than the gateway's two. */
    private Instance parse(TemplatedRouteDefinition route) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        for (TemplatedRouteParameterDefinition p : route.getParameters()) {
            parameters.put(p.getName(), p.getValue());
        }
        String onlyDataSource = dataSources.names().size() == 1 ? dataSources.names().iterator().next() : null;
        String template = route.getRouteTemplateRef();
        if (OutboxRelayTemplate.TEMPLATE.equals(template)) {
            return new Instance(template, RelaySettings.parse(parameters, properties.source(), onlyDataSource).relay());
        }
        if (InboxConsumerTemplate.TEMPLATE.equals(template)) {
            return new Instance(template, InboxSettings.parse(parameters, onlyDataSource).consumer());
        }
        return null;
    }
}
