package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.store.OutboxExplain;
import io.legacygateway.adapters.outbox.sql.OutboxStatements;
import io.legacygateway.adapters.outbox.store.OutboxStore;
import io.legacygateway.adapters.outbox.zerowrite.ZeroWriteReader;
import io.legacygateway.command.CommandBeans;
import io.legacygateway.command.ConfiguredCommand;
import io.legacygateway.transactions.TransactionMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.core.env.CommandLinePropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code java -jar gateway-app.jar relay explain <relay> [--routes=PATTERN]}: prints the statements of one relay of
 * the route YAML as its store renders them (complete text, the meaning of each bind), the database's plan for its
 * claim, ordering check and mark, and whether the claim reads an index that holds only waiting rows, with the index to
 * add when it does not ({@link OutboxExplain}). Executes nothing but {@code EXPLAIN} and one plain read of waiting rows
 * (for example keys); starts no route and locks nothing.
 *
 * <p>The relay is found in the route files of {@code camel.main.routes-include-pattern} as the gateway's configuration
 * sets it (a command's context replaces that setting so that no route starts, so the value is read from the
 * configuration's own sources), or of {@code --routes}. Its parameters go through the same {@link RelaySettings}
 * parsing and {@link OutboxRelayFactory} as at startup, so a relay that would not start fails here with the same
 * message. Exit 0 when the claim reads such an index, 1 when it does not.
 */
@Command(name = "explain", description = {"a relay's statements and the database's plans for them; exit 1 when the"
        + " claim reads no index of waiting rows only",
        "Reads the gateway's configuration (Spring options before the command word) and runs only EXPLAIN and a plain"
        + " read of waiting rows."})
public class RelayExplainCommand implements ConfiguredCommand {

    static final String ROUTES_PROPERTY = "camel.main.routes-include-pattern";

    @Parameters(paramLabel = "<relay>", description = "the relay's name (its relay parameter in the route YAML)")
    String name;

    @Option(names = "--routes", paramLabel = "PATTERN", description = "the route files to find it in, e.g."
            + " file:routes/outbox/*.yaml (default: " + ROUTES_PROPERTY + " as configured)")
    String routes;

    @Override
    public int run(CommandBeans beans, PrintStream out) throws Exception {
        String pattern = routes != null ? routes : configuredRoutes(beans);
        Map<String, Object> parameters = new HashMap<>(relayParameters(pattern, name));
        // the statements are the same in XA; a command must not start Narayana's recovery on the object store of the
        // gateway that runs beside it
        parameters.put("transactionMode", TransactionMode.LOCAL.name());
        OutboxRelay relay = beans.get(OutboxRelayFactory.class).create(parameters);
        if (relay.source() instanceof ZeroWriteReader reader) {
            out.println("relay '" + name + "': markMode ZERO_WRITE reads by commit horizon and claims no rows; its"
                    + " reads, rendered once when the relay is built (no plans are printed for them):");
            out.println();
            reader.statements().all().forEach(s -> out.println(s.describe()));
            return 0;
        }
        return explain((OutboxStore) relay.source(), relay.settings().batchSize(), out);
    }

    /** The store's statements and their plans; 0 when the claim reads an index of waiting rows only, else 1. */
    private int explain(OutboxStore store, int batchSize, PrintStream out) {
        out.println("relay '" + name + "': " + store.dialect().id() + " table " + store.mapping().table().name()
                + ", markMode " + store.mapping().markMode() + ", batch " + batchSize);
        out.println();
        out.println("Statements, rendered once when the relay is built (binds in order; [name] is supplied by each"
                + " cycle, the rest are constants):");
        out.println();
        for (OutboxStatements.Statement s : store.statements().all()) {
            out.println(s.describe());
        }
        if (store.rejectionLog() != null) {
            for (OutboxStatements.Statement s : store.rejectionLog().statements().all()) {
                out.println(s.describe());
            }
        }
        OutboxExplain.Report report = OutboxExplain.explain(store, batchSize, Instant.now());
        for (OutboxExplain.Plan plan : report.plans()) {
            out.println("-- plan of " + plan.statement() + (plan.example().isEmpty() ? "" : " (example binds: "
                    + plan.example() + ")"));
            plan.lines().forEach(l -> out.println("   " + l));
            out.println();
        }
        if (report.waitingOnly()) {
            out.println("claim index: " + report.claimIndex() + " holds only waiting rows (" + report.indexFacts()
                    + ")");
            return 0;
        }
        out.println("claim index: the claim does NOT read an index holding only waiting rows ("
                + (report.claimIndex() == null ? "it scans the table" : "it reads " + report.claimIndex() + ", "
                + report.indexFacts()) + "); as the table's history grows each claim reads more published rows."
                + " Add:");
        out.println("   " + report.advice() + ";");
        return 1;
    }

    /** The route pattern as the gateway's configuration sets it, not as the command's context overrides it. */
    private static String configuredRoutes(CommandBeans beans) {
        for (PropertySource<?> source : beans.get(ConfigurableEnvironment.class).getPropertySources()) {
            if (source instanceof CommandLinePropertySource || source.getName().equals("configurationProperties")) {
                continue; // the command context's own override (GatewayCli), and Boot's view over all sources
            }
            Object value = source.getProperty(ROUTES_PROPERTY);
            if (value != null) {
                return value.toString();
            }
        }
        throw new IllegalArgumentException(ROUTES_PROPERTY + " is not set: give --routes=PATTERN");
    }

    /** The parameters of the {@code outbox-relay} instance whose {@code relay} is {@code name}. */
    static Map<String, Object> relayParameters(String patterns, String name) throws IOException {
        PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();
        List<String> seen = new ArrayList<>();
        for (String pattern : patterns.split(",")) {
            Resource[] found;
            try {
                found = resolver.getResources(pattern.strip());
            } catch (IOException missingFolder) {
                continue; // as RouteFolders: a folder that does not exist matches nothing
            }
            for (Resource r : found) {
                if (!r.exists() || !(r.getFilename() != null && r.getFilename().matches(".*\\.ya?ml"))) {
                    continue;
                }
                try (InputStream in = r.getInputStream()) {
                    for (Object doc : new Yaml().loadAll(in)) {
                        for (Map<String, Object> p : relays(doc)) {
                            seen.add(String.valueOf(p.get("relay")));
                            if (name.equals(String.valueOf(p.get("relay")))) {
                                return p;
                            }
                        }
                    }
                }
            }
        }
        throw new IllegalArgumentException("no outbox-relay named '" + name + "' in " + patterns
                + (seen.isEmpty() ? " (no relay there)" : " (relays: " + String.join(", ", seen) + ")"));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> relays(Object doc) {
        List<Map<String, Object>> found = new ArrayList<>();
        if (!(doc instanceof List<?> items)) {
            return found;
        }
        for (Object item : items) {
            if (!(item instanceof Map<?, ?> m) || !(m.get("templatedRoute") instanceof Map<?, ?> route)) {
                continue;
            }
            Object ref = route.get("routeTemplateRef") != null ? route.get("routeTemplateRef")
                    : route.get("route-template-ref");
            if (!OutboxRelayTemplate.TEMPLATE.equals(ref) || !(route.get("parameters") instanceof List<?> list)) {
                continue;
            }
            Map<String, Object> parameters = new LinkedHashMap<>();
            for (Object p : list) {
                if (p instanceof Map<?, ?> pm && pm.get("name") != null) {
                    parameters.put(pm.get("name").toString(), pm.get("value"));
                }
            }
            found.add(parameters);
        }
        return found;
    }
}
