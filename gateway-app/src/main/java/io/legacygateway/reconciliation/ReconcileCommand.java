package io.legacygateway.reconciliation;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.command.FilterOptions;
import io.legacygateway.command.GatewayApiClient;
import io.legacygateway.command.GatewayApiOptions;
import io.legacygateway.command.GatewayCommand;
import java.io.PrintStream;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar gateway-app.jar reconcile [relay] [--all] [--intent-id=ID] [--json]}: the reconciliation report of a
 * running gateway, through its REST API ({@link GatewayApiOptions}: {@code --gateway=http://host:8080 --user=...
 * --password=...} or {@code GATEWAY_URL}, {@code GATEWAY_USER}, {@code GATEWAY_PASSWORD}). Exits 1 when an intent needs
 * attention (any decision but DOMAIN_AND_INTENT_COMMITTED) or an XA transaction stays in doubt longer than
 * {@code stuck-after}, so that a scheduler can alert on it, and when the gateway
 * refuses.
 */
@Command(name = "reconcile", description = "the reconciliation report of a running gateway; exit 1 on findings")
public class ReconcileCommand implements GatewayCommand {

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Mixin
    Selection selection;

    @Option(names = "--json", description = "print the API's JSON")
    boolean json;

    @Mixin
    GatewayApiOptions gateway;

    @Override
    public int run(PrintStream out) throws Exception {
        GatewayApiClient.Response response = gateway.client().get("/api/reconciliation", selection.parameters());
        if (!response.ok()) {
            out.println(response.error());
            return 1;
        }
        Reconciliation.Report report = JSON.readValue(response.body(), Reconciliation.Report.class);
        out.println(json ? response.prettyJson() : report.render());
        return report.findings() ? 1 : 0;
    }

    /** Which part of the report: the arguments of {@link ReconciliationQuery}, read by its own factory. */
    static final class Selection {

        @Spec(Spec.Target.MIXEE)
        CommandSpec command;

        @Parameters(arity = "0..1", paramLabel = "<relay>", description = ReconciliationQuery.RELAY_TEXT)
        String relay;

        @Option(names = "--all", description = ReconciliationQuery.ALL_TEXT)
        boolean all;

        @Option(names = "--intent-id", paramLabel = "ID", description = ReconciliationQuery.INTENT_ID_TEXT)
        String intentId;

        /** The query as the API's parameters. */
        Map<String, String> parameters() {
            return FilterOptions.read(command, ReconciliationQuery::from, GatewayApiClient.parameters(
                    ReconciliationQuery.RELAY, relay, ReconciliationQuery.ALL, String.valueOf(all),
                    ReconciliationQuery.INTENT_ID, intentId)).parameters();
        }
    }
}
