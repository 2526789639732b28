package io.legacygateway.steps;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Expression;
import org.apache.camel.Predicate;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.language.xpath.XPathBuilder;
import org.apache.camel.model.Model;
import org.apache.camel.model.ProcessorDefinition;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.model.SendDefinition;
import org.apache.camel.model.ToDynamicDefinition;
import org.apache.camel.spi.Language;

/**
 * One step declared in YAML that reshapes an event: an expression in a language the gateway ships
 * ({@code simple:…}, {@code jq:…} for JSON, {@code xpath:…} for XML) or an endpoint, {@code direct:<route>} (a route
 * written in YAML or Java) or {@code xslt:<resource>} (an XSLT stylesheet for XML payloads).
 *
 * <p>Contract: a step runs synchronously on the caller's thread, inside the caller's transaction, once per event;
 * it may run again for the same event (a retry, a redelivery, a crash before the mark), so it must be a pure function
 * of the exchange. It must not publish or write: {@link #forbiddenSteps} names every step of a {@code direct:} route
 * (and of the {@code direct:} routes it calls) that sends to a messaging or database component, and the relay and the
 * inbox refuse to start with one.
 *
 * <p>Not checked: what a {@code bean:} or {@code process:} step does inside Java code.
 */
public final class EventStep {

    /** The expression languages a step may be written in. */
    public static final List<String> LANGUAGES = List.of("simple", "jq", "xpath");
    /** The endpoints a step may be: a route, or a stylesheet. */
    public static final List<String> ENDPOINTS = List.of("direct:", "xslt:");
    /** Components that publish or write: a step reaching one would publish or write before the mark. */
    private static final Set<String> FORBIDDEN = Set.of("jms", "activemq", "amqp", "sjms", "sjms2", "kafka", "rabbitmq",
            "spring-rabbitmq", "paho", "paho-mqtt5", "sql", "sql-stored", "jdbc", "spring-jdbc", "jpa", "mongodb",
            "cql", "redis", "spring-redis", "file", "ftp", "sftp", "seda", "vm");

    private final String parameter;
    private final String spec;
    private final String language;
    private final String text;
    private Expression expression;
    private Predicate predicate;
    private ProducerTemplate producer;

    private EventStep(String parameter, String spec, String language, String text) {
        this.parameter = parameter;
        this.spec = spec;
        this.language = language;
        this.text = text;
    }

    /**
     * Reads a step's syntax; nothing is compiled yet ({@link #compile}).
     *
     * @param parameter names the parameter in errors, for example {@code relay 'billing': transform}
     * @param predicate {@code true} for a filter: only an expression can decide whether an event goes on
     * @throws IllegalArgumentException naming {@code parameter} when the text is neither form
     */
    public static EventStep parse(String parameter, String spec, boolean predicate) {
        String s = spec == null ? "" : spec.strip();
        for (String endpoint : ENDPOINTS) {
            if (s.startsWith(endpoint) && s.length() > endpoint.length()) {
                if (predicate) {
                    throw new IllegalArgumentException(parameter + ": '" + s + "' is an endpoint; a filter is an"
                            + " expression that is true for the events that go on, such as simple:${header.ce_type}"
                            + " != 'Internal' (drop events in a direct: route of `steps` instead)");
                }
                return new EventStep(parameter, s, null, s);
            }
        }
        int colon = s.indexOf(':');
        String language = colon > 0 ? s.substring(0, colon).toLowerCase(Locale.ROOT) : "";
        String text = colon > 0 ? s.substring(colon + 1).strip() : "";
        if (!LANGUAGES.contains(language) || text.isEmpty()) {
            throw new IllegalArgumentException(parameter + ": '" + s + "' is neither <language>:<expression> ("
                    + String.join(", ", LANGUAGES) + ") nor an endpoint (" + String.join("<…>, ", ENDPOINTS) + "<…>)");
        }
        return new EventStep(parameter, s, language, text);
    }

    /**
     * Compiles the expression (a syntax error fails here, naming the parameter) or prepares the endpoint's producer.
     * An endpoint's route may be created later than the caller: it is checked by {@link #forbiddenSteps} once the
     * routes exist.
     */
    public EventStep compile(CamelContext camel) {
        if (language == null) {
            producer = camel.createProducerTemplate();
            return this;
        }
        try {
            Language l = camel.resolveLanguage(language);
            expression = l.createExpression(text);
            if (expression instanceof XPathBuilder xpath) {
                xpath.setResultType(String.class); // as an object its value is a node list: a transform means text
            }
            expression.init(camel);
            predicate = l.createPredicate(text);
            predicate.init(camel);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(parameter + ": '" + spec + "' does not compile: " + e.getMessage(), e);
        }
        return this;
    }

    /** The parameter this step was given as, for messages. */
    public String parameter() {
        return parameter;
    }

    /** The step as written. */
    @Override
    public String toString() {
        return spec;
    }

    /**
     * Runs the step on {@code exchange} and returns what it made of the body: the expression's value, or the body the
     * endpoint left. The exchange's headers stay as the step left them.
     *
     * @throws Exception what the step threw: the caller charges it to this one event
     */
    public Object apply(Exchange exchange) throws Exception {
        if (expression != null) {
            Object value = expression.evaluate(exchange, Object.class);
            if (exchange.getException() != null) {
                throw takeException(exchange);
            }
            return value;
        }
        producer.send(spec, exchange);
        if (exchange.getException() != null) {
            throw takeException(exchange);
        }
        return exchange.getMessage().getBody();
    }

    /**
     * Whether the event goes on, for a filter.
     *
     * @throws Exception what evaluating threw
     */
    public boolean matches(Exchange exchange) throws Exception {
        boolean matches = predicate.matches(exchange);
        if (exchange.getException() != null) {
            throw takeException(exchange);
        }
        return matches;
    }

    private static Exception takeException(Exchange exchange) {
        Exception e = exchange.getException();
        exchange.setException(null);
        return e;
    }

    /**
     * The steps of this step's {@code direct:} route, and of the {@code direct:} routes those call, that send to a
     * component that publishes or writes ({@code jms:}, {@code sql:}, …), as sentences naming the parameter and the
     * route; empty for an expression or a stylesheet. Call once the routes exist.
     */
    public List<String> forbiddenSteps(CamelContext camel) {
        List<String> found = new ArrayList<>();
        if (spec.startsWith("direct:")) {
            visit(camel, spec, new HashSet<>(), found);
        }
        return found;
    }

    private void visit(CamelContext camel, String direct, Set<String> visited, List<String> found) {
        String name = endpointName(direct);
        if (!visited.add(name)) {
            return;
        }
        Model model = camel.getCamelContextExtension().getContextPlugin(Model.class);
        for (RouteDefinition route : model.getRouteDefinitions()) {
            if (route.getInput() != null && endpointName(route.getInput().getEndpointUri()).equals(name)) {
                for (String uri : sends(route, new ArrayList<>())) {
                    String scheme = uri.contains(":") ? uri.substring(0, uri.indexOf(':')) : uri;
                    if (scheme.equals("direct")) {
                        visit(camel, uri, visited, found);
                    } else if (FORBIDDEN.contains(scheme.toLowerCase(Locale.ROOT))) {
                        found.add(parameter + ": route '" + route.getRouteId() + "' sends to '" + uri + "'; a step must"
                                + " not publish or write (it runs before the mark and may run again for the same"
                                + " event): publish from a relay, write from an inbox effect");
                    }
                }
            }
        }
    }

    /** {@code direct:name?options} and {@code direct://name} name the same endpoint. */
    private static String endpointName(String uri) {
        String s = uri.startsWith("direct://") ? "direct:" + uri.substring("direct://".length()) : uri;
        int q = s.indexOf('?');
        return q < 0 ? s : s.substring(0, q);
    }

    /** The endpoint URIs the steps of {@code node} send to, at any depth. */
    private static List<String> sends(ProcessorDefinition<?> node, List<String> found) {
        if (node instanceof SendDefinition<?> send && send.getEndpointUri() != null) {
            found.add(send.getEndpointUri());
        } else if (node instanceof ToDynamicDefinition dynamic && dynamic.getUri() != null) {
            found.add(dynamic.getUri()); // toD and wireTap
        }
        node.getOutputs().forEach(child -> sends(child, found));
        return found;
    }
}
