package io.legacygateway.reconciliation;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.cli.GatewayApiClient;
import io.legacygateway.cli.GatewayCommand;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar gateway-app.jar reconcile [relay] [--all] [--intent-id=ID] [--json]}: the reconciliation report of a
 * running gateway, through its REST API ({@link GatewayApiClient}: {@code --gateway=http://host:8080 --user=...
 * --password=...} or {@code GATEWAY_URL}, {@code GATEWAY_USER}, {@code GATEWAY_PASSWORD}). Exits 1 when an intent needs
 * attention (any decision but DOMAIN_AND_INTENT_COMMITTED), so that a scheduler can alert on it.
 */
public class ReconcileCommand implements GatewayCommand {

    private final ObjectMapper json = new ObjectMapper().findAndRegisterModules()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Override
    public int run(List<String> arguments, PrintStream out) throws Exception {
        List<String> args = new ArrayList<>(arguments);
        GatewayApiClient api = GatewayApiClient.from(args);
        Map<String, String> query = new LinkedHashMap<>();
        query.put("all", String.valueOf(args.remove("--all")));
        boolean raw = args.remove("--json");
        String intent = GatewayApiClient.option(args, "intent-id", null);
        if (intent != null) {
            query.put("intentId", intent);
        }
        if (!args.isEmpty() && !args.get(0).startsWith("--")) {
            query.put("relay", args.remove(0));
        }
        if (!args.isEmpty()) {
            out.println("error: unknown argument '" + args.get(0) + "'\nusage: reconcile [relay] [--all]"
                    + " [--intent-id=ID] [--json] [--gateway=URL --user=U --password=P]");
            return 2;
        }
        GatewayApiClient.Response response = api.get("/api/reconciliation", query);
        if (!response.ok()) {
            out.println("error: HTTP " + response.status() + (response.body() == null ? "" : ": " + response.body()));
            return 1;
        }
        Reconciliation.Report report = json.readValue(response.body(), Reconciliation.Report.class);
        out.println(raw ? json.writerWithDefaultPrettyPrinter().writeValueAsString(json.readTree(response.body()))
                : report.render());
        return report.findings() ? 1 : 0;
    }
}
