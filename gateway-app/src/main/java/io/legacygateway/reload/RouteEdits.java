package io.legacygateway.reload;

import io.legacygateway.adapters.Failures;
import io.legacygateway.inbox.InboxConsumerFactory;
import io.legacygateway.inbox.InboxConsumerTemplate;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.relay.OutboxRelayTemplate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.camel.CamelContext;
import org.apache.camel.RouteConfigurationsBuilder;
import org.apache.camel.RoutesBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.Model;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.model.TemplatedRouteDefinition;
import org.apache.camel.model.TemplatedRouteParameterDefinition;
import org.apache.camel.spi.Resource;
import org.apache.camel.spi.RoutesBuilderLoader;
import org.apache.camel.spi.RoutesLoader;
import org.apache.camel.util.StringHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Camel's routes loader with a checked {@link #updateRoutes}: what Camel's route reload ({@code
 * camel.main.routes-reload-enabled}, {@code RouteWatcherReloadStrategy}) calls with a changed route file. Everything
 * else (the routes loaded at startup) is Camel's own loader's.
 *
 * <p>Guarantees for a changed file:
 * <ul>
 *   <li>It is read and checked before any route is touched: YAML syntax, and every {@code templatedRoute} of the
 *       gateway's templates as at startup ({@link RouteEditCheck}). A file that fails is refused as a whole with one
 *       ERROR line naming the file, the route and the parameter; every running route keeps running as it was (the
 *       same relay or consumer, never stopped).</li>
 *   <li>A file that passes replaces each of its templated routes by route id, one at a time: the old route is
 *       stopped (Camel's graceful stop: its in-flight exchange, a relay's cycle or an inbox batch, finishes first,
 *       within {@code camel.main.shutdown-timeout}) and removed, its relay or consumer released ({@link
 *       OutboxRelayFactory#release}, {@link InboxConsumerFactory#release}), then the new route is created and started.
 *       </li>
 *   <li>A new route that fails to be created (what only the database or the broker can tell: a table that is not
 *       there, the broker's dead-letter settings) is logged at ERROR, and the old route is created again from its
 *       previous parameters and started: the route runs as before the edit, with a new relay or consumer.</li>
 * </ul>
 * Camel's stock update does not create a file's {@code templatedRoute}s at all (Camel 4.17 {@code
 * RouteBuilder.updateRoutesToCamelContext} updates plain routes only); plain routes of the file are still updated by
 * it. Not handled: a route removed from the file keeps running, and a deleted file changes nothing (restart for both).
 */
final class RouteEdits implements RoutesLoader {

    private static final Logger log = LoggerFactory.getLogger(RouteEdits.class);

    private final RoutesLoader camelLoader;
    private final CamelContext camel;
    private final Supplier<RouteEditCheck> check;
    private final Supplier<OutboxRelayFactory> relays;
    private final Supplier<InboxConsumerFactory> consumers;

    RouteEdits(RoutesLoader camelLoader, CamelContext camel, Supplier<RouteEditCheck> check,
               Supplier<OutboxRelayFactory> relays, Supplier<InboxConsumerFactory> consumers) {
        this.camelLoader = camelLoader;
        this.camel = camel;
        this.check = check;
        this.relays = relays;
        this.consumers = consumers;
    }

    @Override
    public synchronized Set<String> updateRoutes(Collection<Resource> resources) throws Exception {
        Set<String> replaced = new LinkedHashSet<>();
        for (Resource resource : resources) {
            replaced.addAll(update(resource));
        }
        return replaced;
    }

    private Set<String> update(Resource file) throws Exception {
        Collection<RoutesBuilder> builders;
        List<TemplatedRouteDefinition> templated = new ArrayList<>();
        try {
            builders = camelLoader.findRoutesBuilders(List.of(file));
            for (RoutesBuilder b : builders) {
                if (b instanceof RouteBuilder rb) {
                    rb.configureRoutes(camel); // reads the whole file now: a syntax error refuses it here
                    templated.addAll(rb.getTemplatedRouteCollection().getTemplatedRoutes());
                }
            }
        } catch (Exception e) {
            log.error("Route file {} not reloaded, the running routes are unchanged: {}", file.getLocation(),
                    unreadable(e));
            return Set.of();
        }
        List<String> problems = check.get().problems(templated, running());
        if (!problems.isEmpty()) {
            log.error("Route file {} not reloaded, the running routes are unchanged: {}", file.getLocation(),
                    String.join("; ", problems));
            return Set.of();
        }
        Set<String> ids = new LinkedHashSet<>();
        for (RoutesBuilder b : builders) {
            if (b instanceof RouteConfigurationsBuilder rcb) {
                rcb.updateRouteConfigurationsToCamelContext(camel);
            }
        }
        for (RoutesBuilder b : builders) {
            ids.addAll(b.updateRoutesToCamelContext(camel)); // the file's plain routes, as Camel updates them
        }
        for (TemplatedRouteDefinition route : templated) {
            if (replace(route, file) && route.getRouteId() != null) {
                ids.add(route.getRouteId());
            }
        }
        return ids;
    }

    /** Replaces the route of {@code route}'s id by {@code route}. @return whether the new route runs */
    private boolean replace(TemplatedRouteDefinition route, Resource file) {
        Model model = camel.getCamelContextExtension().getContextPlugin(Model.class);
        String id = route.getRouteId();
        RouteDefinition old = id == null ? null : model.getRouteDefinition(id);
        Map<String, Object> previous = old == null ? null : given(old.getTemplateParameters());
        RouteEditCheck.Instance oldInstance = RouteEditCheck.Instance.of(previous);
        try {
            if (old != null) {
                remove(id, oldInstance);
            }
            model.addRouteFromTemplatedRoute(route);
            log.info("Route file {}: route '{}' replaced", file.getLocation(), id);
            return true;
        } catch (Exception e) {
            String failure = reason(e);
            clearFailed(model, id, RouteEditCheck.Instance.of(parameters(route)));
            if (oldInstance == null) {
                log.error("Route file {}: route '{}' not created: {}", file.getLocation(), id, failure);
                return false;
            }
            try {
                model.addRouteFromTemplate(id, oldInstance.template(), previous);
                log.error("Route file {}: route '{}' not replaced, started again as it was before the edit: {}",
                        file.getLocation(), id, failure);
            } catch (Exception again) {
                clearFailed(model, id, oldInstance);
                log.error("Route file {}: route '{}' not replaced ({}), and starting it as it was failed too: {};"
                        + " it is not running", file.getLocation(), id, failure, reason(again));
            }
            return false;
        }
    }

    /** Stops and removes the route, then releases what its relay or consumer held. */
    private void remove(String id, RouteEditCheck.Instance instance) throws Exception {
        camel.getRouteController().stopRoute(id);
        camel.removeRoute(id);
        release(instance);
    }

    /** What a route that failed to be created left behind: its half-made route and its relay or consumer. */
    private void clearFailed(Model model, String id, RouteEditCheck.Instance instance) {
        try {
            if (id != null && camel.getRoute(id) != null) {
                camel.getRouteController().stopRoute(id);
                camel.removeRoute(id);
            }
            if (id != null && model.getRouteDefinition(id) != null) {
                model.removeRouteDefinition(model.getRouteDefinition(id));
            }
        } catch (Exception e) {
            log.debug("removing what route '{}' left failed: {}", id, Failures.describe(e));
        }
        release(instance);
    }

    private void release(RouteEditCheck.Instance instance) {
        if (instance == null) {
            return;
        }
        if (OutboxRelayTemplate.TEMPLATE.equals(instance.template())) {
            relays.get().release(instance.name());
        } else if (InboxConsumerTemplate.TEMPLATE.equals(instance.template())) {
            consumers.get().release(instance.name());
        }
    }

    /** The running relays and consumers by route id. */
    private Map<String, RouteEditCheck.Instance> running() {
        Map<String, RouteEditCheck.Instance> running = new LinkedHashMap<>();
        for (RouteDefinition r : camel.getCamelContextExtension().getContextPlugin(Model.class).getRouteDefinitions()) {
            RouteEditCheck.Instance instance = RouteEditCheck.Instance.of(r.getTemplateParameters());
            if (instance != null) {
                running.put(r.getRouteId(), instance);
            }
        }
        return running;
    }

    /**
     * The parameters a route was made with, from its template parameters: Camel keeps each camelCase key a second
     * time in dashed form ({@code attempt-log} beside {@code attemptLog}), which the templates would refuse.
     */
    private static Map<String, Object> given(Map<String, Object> templateParameters) {
        if (templateParameters == null) {
            return null;
        }
        Map<String, Object> given = new LinkedHashMap<>(templateParameters);
        given.keySet().removeIf(k -> k.contains("-") && templateParameters.containsKey(StringHelper.dashToCamelCase(k)));
        return given;
    }

    /** Why the file could not be read: the innermost message (the YAML parser's, with its line), on one line. */
    private static String unreadable(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.toString() : root.getMessage();
        return message.strip().replaceAll("\\s+", " ");
    }

    /**
     * Why a route could not be created: the relay's or consumer's own message, which names the parameter (Camel wraps
     * it in the failures of the endpoint and of the route); the whole chain when there is none.
     */
    private static String reason(Throwable failure) {
        String reason = null;
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof IllegalArgumentException && t.getMessage() != null) {
                reason = t.getMessage();
            }
        }
        return reason != null ? reason : Failures.describe(failure);
    }

    private static Map<String, Object> parameters(TemplatedRouteDefinition route) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        for (TemplatedRouteParameterDefinition p : route.getParameters()) {
            parameters.put(p.getName(), p.getValue());
        }
        return parameters;
    }

    @Override
    public Collection<RoutesBuilder> findRoutesBuilders(Collection<Resource> resources) throws Exception {
        return camelLoader.findRoutesBuilders(resources);
    }

    @Override
    public Collection<RoutesBuilder> findRoutesBuilders(Collection<Resource> resources, boolean optional)
            throws Exception {
        return camelLoader.findRoutesBuilders(resources, optional);
    }

    @Override
    public RoutesBuilderLoader getRoutesLoader(String extension) throws Exception {
        return camelLoader.getRoutesLoader(extension);
    }

    @Override
    public void preParseRoute(Resource resource, boolean optional) throws Exception {
        camelLoader.preParseRoute(resource, optional);
    }

    @Override
    public boolean isIgnoreLoadingError() {
        return camelLoader.isIgnoreLoadingError();
    }

    @Override
    public void setIgnoreLoadingError(boolean ignoreLoadingError) {
        camelLoader.setIgnoreLoadingError(ignoreLoadingError);
    }

    @Override
    public CamelContext getCamelContext() {
        return camelLoader.getCamelContext();
    }

    @Override
    public void setCamelContext(CamelContext camelContext) {
        camelLoader.setCamelContext(camelContext);
    }
}
