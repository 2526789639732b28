package io.legacygateway.inbox;

import io.legacygateway.config.GatewayDataSources;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.component.direct.DirectEndpoint;
import org.apache.camel.component.sql.SqlEndpoint;
import org.apache.camel.model.Model;
import org.apache.camel.model.ProcessorDefinition;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.model.SendDefinition;

/**
 * A startup lint of the routes that inbox consumers call as effects ({@code effectEndpoint: direct:...}, and the
 * {@code direct:} routes those call): a camel-sql step on a datasource other than the consumer's does not join the
 * inbox's transaction. It commits on its own connection, also when the inbox rolls back, and runs again on a retry.
 * Such a step is legal (a lookup elsewhere, an idempotent write), so it is reported, not refused.
 */
final class EffectRouteCheck {

    private final CamelContext camel;
    private final GatewayDataSources dataSources;

    EffectRouteCheck(CamelContext camel, GatewayDataSources dataSources) {
        this.camel = camel;
        this.dataSources = dataSources;
    }

    /**
     * One sentence per camel-sql step, reachable from a consumer's endpoint effect, that runs on another datasource
     * than the consumer's; naming the consumer, the parameter, the route, the step and both datasources.
     */
    List<String> findings(List<InboxConsumer> consumers) {
        List<String> findings = new ArrayList<>();
        for (InboxConsumer consumer : consumers) {
            InboxSettings s = consumer.settings();
            DataSource own = dataSources.get(s.dataSource(), InboxSettings.label(s.consumer(), "dataSource"));
            for (Map.Entry<String, InboxSettings.Effect> e : s.effects().entrySet()) {
                String uri = e.getValue().endpoint();
                Endpoint effect = uri == null ? null : camel.hasEndpoint(uri);
                if (effect instanceof DirectEndpoint) {
                    String label = InboxSettings.label(s.consumer(), e.getValue().endpointParameter());
                    visit(effect, own, s.dataSource(), label, new HashSet<>(), findings);
                }
            }
        }
        return findings.stream().distinct().toList();
    }

    /** The routes that consume from {@code direct}, their steps and the {@code direct:} routes they call. */
    private void visit(Endpoint direct, DataSource own, String ownName, String label, Set<Endpoint> visited,
                       List<String> findings) {
        if (!visited.add(direct)) {
            return;
        }
        Model model = camel.getCamelContextExtension().getContextPlugin(Model.class);
        for (RouteDefinition route : model.getRouteDefinitions()) {
            if (route.getInput() != null && camel.hasEndpoint(route.getInput().getEndpointUri()) == direct) {
                for (Step step : steps(route, new ArrayList<>())) {
                    if (step.endpoint() instanceof DirectEndpoint) {
                        visit(step.endpoint(), own, ownName, label, visited, findings);
                    } else if (step.endpoint() instanceof SqlEndpoint sql && sql.getJdbcTemplate() != null
                            && sql.getJdbcTemplate().getDataSource() != own) {
                        findings.add(label + ": route '" + route.getRouteId() + "' step '" + step.uri() + "' runs on "
                                + name(sql.getJdbcTemplate().getDataSource()) + ", not on the consumer's datasource '"
                                + ownName + "' (dataSource=#" + ownName + "): it does not join the inbox transaction"
                                + " and commits on its own, also when the inbox rolls back");
                    }
                }
            }
        }
    }

    /** A {@code to} step: its URI as written and the endpoint it sends to. */
    private record Step(String uri, Endpoint endpoint) {
    }

    /** The {@code to} steps of {@code node}, at any depth. */
    private List<Step> steps(ProcessorDefinition<?> node, List<Step> found) {
        if (node instanceof SendDefinition<?> send && send.getEndpointUri() != null) {
            Endpoint endpoint = camel.hasEndpoint(send.getEndpointUri());
            if (endpoint != null) {
                found.add(new Step(send.getEndpointUri(), endpoint));
            }
        }
        // a choice's outputs are those of its whens and its otherwise
        node.getOutputs().forEach(child -> steps(child, found));
        return found;
    }

    private String name(DataSource dataSource) {
        return dataSources.names().stream()
                .filter(n -> dataSources.get(n, "gateway.datasources." + n) == dataSource)
                .map(n -> "datasource '" + n + "'").findFirst().orElse("a datasource outside gateway.datasources");
    }
}
