package io.legacygateway.relay;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.command.FilterOptions;
import io.legacygateway.command.GatewayApiClient;
import io.legacygateway.command.GatewayApiOptions;
import io.legacygateway.command.GatewayCommand;
import io.legacygateway.relay.RelayOperations.Filter;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar gateway-app.jar relay list|failed|retry|explain ...}: the relays and their FAILED rows through the
 * REST API of a running gateway ({@link GatewayApiOptions}), printing the API's JSON answer; {@code relay explain}
 * ({@link RelayExplainCommand}) reads the gateway's configuration instead. A refusal of the gateway prints
 * {@code error: HTTP <status>} and exits 1.
 */
@Command(name = "relay", description = "the relays: their FAILED rows on a running gateway, or a relay's statements",
        subcommands = {RelayCommand.ListRelays.class, RelayCommand.Failed.class, RelayCommand.Retry.class,
                RelayExplainCommand.class})
public class RelayCommand {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Command(name = "list", description = "the relays of a running gateway, with their FAILED rows' counts")
    static final class ListRelays implements GatewayCommand {

        @Mixin
        GatewayApiOptions gateway;

        @Override
        public int run(PrintStream out) throws Exception {
            return print(gateway.client().get("/api/relays", Map.of()), out);
        }
    }

    @Command(name = "failed", description = "a relay's FAILED rows on a running gateway, in outbox order")
    static final class Failed implements GatewayCommand {

        @Parameters(paramLabel = "<relay>", description = "the relay's name")
        String relay;

        @Mixin
        FailedRows filter;

        @Option(names = "--limit", paramLabel = "N", description = "at most N rows (default 100, at most 1000)")
        Integer limit;

        @Mixin
        GatewayApiOptions gateway;

        @Override
        public int run(PrintStream out) throws Exception {
            Map<String, String> query = filter.parameters();
            if (limit != null) {
                query.put("limit", limit.toString());
            }
            return print(gateway.client().get("/api/relays/" + relay + "/failed", query), out);
        }
    }

    @Command(name = "retry", description = {"set a relay's FAILED rows back to PENDING on a running gateway",
            "The rows: --ids, or a filter, or --all (the gateway refuses a retry without one of them)."})
    static final class Retry implements GatewayCommand {

        @Parameters(paramLabel = "<relay>", description = "the relay's name")
        String relay;

        @Option(names = "--ids", paramLabel = "KEY", split = ",", description = "the rows' keys, comma-separated")
        List<String> ids;

        @Mixin
        FailedRows filter;

        @Option(names = "--all", description = "every FAILED row of the relay")
        boolean all;

        @Option(names = "--dry-run", description = "count the rows it would retry, change nothing")
        boolean dryRun;

        @Mixin
        GatewayApiOptions gateway;

        @Override
        public int run(PrintStream out) throws Exception {
            Map<String, Object> body = new LinkedHashMap<>();
            if (ids != null) {
                body.put("ids", ids.stream().map(String::strip).filter(s -> !s.isEmpty()).toList());
            }
            body.putAll(filter.parameters());
            if (all) {
                body.put("all", true);
            }
            body.put("dryRun", dryRun);
            return print(gateway.client().post("/api/relays/" + relay + "/failed/retry",
                    JSON.writeValueAsString(body)), out);
        }
    }

    /**
     * Which FAILED rows: the options of {@link RelayOperations.Filter}, which {@code failed} and {@code retry} share,
     * read by the filter's own factory.
     */
    static final class FailedRows {

        @Spec(Spec.Target.MIXEE)
        CommandSpec command;

        @Option(names = "--event-type", paramLabel = "T", description = Filter.EVENT_TYPE_TEXT)
        String eventType;

        @Option(names = "--aggregate-id", paramLabel = "A", description = Filter.AGGREGATE_ID_TEXT)
        String aggregateId;

        @Option(names = "--from", paramLabel = "ISO", description = Filter.FROM_TEXT)
        String from;

        @Option(names = "--to", paramLabel = "ISO", description = Filter.TO_TEXT)
        String to;

        @Option(names = "--reason", paramLabel = "TEXT", description = Filter.REASON_TEXT)
        String reason;

        /** The filter's criteria as the API's parameters; a value the filter refuses is bad usage. */
        Map<String, String> parameters() {
            return FilterOptions.read(command, Filter::from, GatewayApiClient.parameters(Filter.EVENT_TYPE, eventType,
                    Filter.AGGREGATE_ID, aggregateId, Filter.FROM, from, Filter.TO, to, Filter.REASON, reason))
                    .parameters();
        }
    }

    private static int print(GatewayApiClient.Response response, PrintStream out) throws Exception {
        if (!response.ok()) {
            out.println(response.error());
            return 1;
        }
        out.println(response.prettyJson());
        return 0;
    }
}
