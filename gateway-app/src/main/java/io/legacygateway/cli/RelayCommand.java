package io.legacygateway.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar gateway-app.jar relay list|failed|retry ...}: the relays' FAILED rows, through the REST API of a
 * running gateway ({@link GatewayApiClient}: {@code --gateway=http://host:8080 --user=... --password=...} or
 * {@code GATEWAY_URL}, {@code GATEWAY_USER}, {@code GATEWAY_PASSWORD}). Prints the API's JSON answer.
 *
 * <pre>
 * relay list
 * relay failed &lt;relay&gt; [--event-type=T] [--aggregate-id=A] [--from=ISO] [--to=ISO] [--reason=text] [--limit=100]
 * relay retry &lt;relay&gt; --ids=K1,K2 | [--event-type=T] [--aggregate-id=A] [--from=ISO] [--to=ISO]
 *       [--reason=text] | --all   [--dry-run]
 * </pre>
 */
public class RelayCommand implements GatewayCommand {

    private static final Map<String, String> FILTERS = new LinkedHashMap<>();

    static {
        FILTERS.put("event-type", "eventType");
        FILTERS.put("aggregate-id", "aggregateId");
        FILTERS.put("from", "from");
        FILTERS.put("to", "to");
        FILTERS.put("reason", "reason");
    }

    private final ObjectMapper json = new ObjectMapper();

    private static String usage() {
        return """
                usage: relay list
                       relay failed <relay> [--event-type=T] [--aggregate-id=A] [--from=ISO] [--to=ISO]
                                            [--reason=text] [--limit=N]
                       relay retry <relay> (--ids=K1,K2 | filter options as for failed | --all) [--dry-run]
                options: --gateway=http://127.0.0.1:8080 --user=... --password=...
                         (or GATEWAY_URL, GATEWAY_USER, GATEWAY_PASSWORD)""";
    }

    @Override
    public int run(List<String> arguments, PrintStream out) throws Exception {
        List<String> args = new ArrayList<>(arguments);
        GatewayApiClient api = GatewayApiClient.from(args);
        if (args.isEmpty()) {
            return usageError(out, "choose list, failed or retry");
        }
        String action = args.remove(0);
        GatewayApiClient.Response response;
        switch (action) {
            case "list" -> {
                if (!args.isEmpty()) {
                    return usageError(out, "unknown argument '" + args.get(0) + "'");
                }
                response = api.get("/api/relays", Map.of());
            }
            case "failed" -> {
                if (args.isEmpty() || args.get(0).startsWith("--")) {
                    return usageError(out, "name the relay");
                }
                String relay = args.remove(0);
                Map<String, String> query = new LinkedHashMap<>();
                FILTERS.forEach((option, parameter) -> {
                    String v = GatewayApiClient.option(args, option, null);
                    if (v != null) {
                        query.put(parameter, v);
                    }
                });
                String limit = GatewayApiClient.option(args, "limit", null);
                if (limit != null) {
                    query.put("limit", limit);
                }
                if (!args.isEmpty()) {
                    return usageError(out, "unknown argument '" + args.get(0) + "'");
                }
                response = api.get("/api/relays/" + relay + "/failed", query);
            }
            case "retry" -> {
                if (args.isEmpty() || args.get(0).startsWith("--")) {
                    return usageError(out, "name the relay");
                }
                String relay = args.remove(0);
                Map<String, Object> body = new LinkedHashMap<>();
                String ids = GatewayApiClient.option(args, "ids", null);
                if (ids != null) {
                    body.put("ids", Arrays.stream(ids.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                            .toList());
                }
                FILTERS.forEach((option, parameter) -> {
                    String v = GatewayApiClient.option(args, option, null);
                    if (v != null) {
                        body.put(parameter, v);
                    }
                });
                if (args.remove("--all")) {
                    body.put("all", true);
                }
                body.put("dryRun", args.remove("--dry-run"));
                if (!args.isEmpty()) {
                    return usageError(out, "unknown argument '" + args.get(0) + "'");
                }
                response = api.post("/api/relays/" + relay + "/failed/retry", json.writeValueAsString(body));
            }
            default -> {
                return usageError(out, "unknown action '" + action + "'");
            }
        }
        if (!response.ok()) {
            out.println("error: HTTP " + response.status() + (response.body() == null || response.body().isBlank()
                    ? "" : ": " + response.body()));
            return 1;
        }
        out.println(json.writerWithDefaultPrettyPrinter().writeValueAsString(json.readTree(response.body())));
        return 0;
    }

    private static int usageError(PrintStream out, String problem) {
        out.println("error: " + problem);
        out.println(usage());
        return 2;
    }
}
