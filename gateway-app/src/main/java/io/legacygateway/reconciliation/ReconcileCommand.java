package io.legacygateway.reconciliation;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.command.GatewayApiClient;
import io.legacygateway.command.GatewayApiOptions;
import io.legacygateway.command.GatewayCommand;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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

    @Parameters(arity = "0..1", paramLabel = "<relay>", description = "only this relay's intents (default: every"
            + " relay's)")
    String relay;

    @Option(names = "--all", description = "every intent, also those that need no attention")
    boolean all;

    @Option(names = "--intent-id", paramLabel = "ID",
            description = "only the intent of this id (its Intent ID in the report)")
    String intentId;

    @Option(names = "--json", description = "print the API's JSON")
    boolean json;

    @Mixin
    GatewayApiOptions gateway;

    @Override
    public int run(PrintStream out) throws Exception {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("all", String.valueOf(all));
        query.put("intentId", intentId);
        query.put("relay", relay);
        GatewayApiClient.Response response = gateway.client().get("/api/reconciliation", query);
        if (!response.ok()) {
            out.println(response.error());
            return 1;
        }
        Reconciliation.Report report = JSON.readValue(response.body(), Reconciliation.Report.class);
        out.println(json ? response.prettyJson() : report.render());
        return report.findings() ? 1 : 0;
    }
}
