package io.legacygateway.deadletter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.legacygateway.command.FilterOptions;
import io.legacygateway.command.GatewayApiClient;
import io.legacygateway.command.GatewayApiOptions;
import io.legacygateway.command.GatewayCommand;
import java.io.PrintStream;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar gateway-app.jar dlq list|show|redeliver ...}: dead letters from the command line, through a running
 * gateway's REST API ({@link GatewayApiOptions}), because the broker may be embedded in the gateway. {@code redeliver}
 * needs {@code --dry-run} or {@code --execute}: it never moves messages by default. {@code --json} prints the API's
 * JSON instead of tables. Exit status: 0 done, 1 the gateway refused or a redelivery stopped or failed, 2 bad usage
 * (also when the gateway answers 400).
 */
@Command(name = "dlq", description = "dead letters on a running gateway: list, show, redeliver",
        subcommands = {DeadLettersCommand.ListQueues.class, DeadLettersCommand.Show.class,
                DeadLettersCommand.Redeliver.class})
public class DeadLettersCommand {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A call of the dead-letter API: its answer printed as tables, or as the API's JSON with {@code --json}; a refusal
     * prints the body and its status, exit 2 for HTTP 400 (bad usage the gateway found), else 1.
     */
    abstract static class DeadLetterCall implements GatewayCommand {

        @Option(names = "--json", description = "print the API's JSON")
        boolean json;

        @Mixin
        GatewayApiOptions gateway;

        abstract GatewayApiClient.Response call(GatewayApiClient api) throws Exception;

        /** Prints the answer for a reader. */
        abstract void render(JsonNode answer, PrintStream out);

        /** The exit status of an answer the gateway accepted. */
        int status(JsonNode answer) {
            return 0;
        }

        @Override
        public final int run(PrintStream out) throws Exception {
            GatewayApiClient.Response r = call(gateway.client());
            if (!r.ok()) {
                out.println(r.body());
                out.println("The gateway answered HTTP " + r.status());
                return r.status() == 400 ? 2 : 1;
            }
            JsonNode answer = JSON.readTree(r.body());
            if (json) {
                out.println(r.body());
            } else {
                render(answer, out);
            }
            return status(answer);
        }
    }

    @Command(name = "list", description = "the dead-letter queues, and their dead letters grouped by reason and type")
    static final class ListQueues extends DeadLetterCall {

        @Override
        GatewayApiClient.Response call(GatewayApiClient api) throws Exception {
            return api.get("/api/dead-letters", Map.of());
        }

        @Override
        void render(JsonNode answer, PrintStream out) {
            DeadLetterTables.overview(answer, out);
        }
    }

    @Command(name = "show", description = {"the dead letters a filter selects, with their inbox status; or one with its"
            + " body", "Bodies (--body, show ID) need an OPERATOR login."})
    static final class Show extends DeadLetterCall {

        @Parameters(arity = "0..1", paramLabel = "ID", description = "one dead letter, by JMS message id or event id,"
                + " with its body")
        String id;

        @Mixin
        Selection selection;

        @Option(names = "--offset", paramLabel = "N", description = "skip the first N selected (default 0)")
        Integer offset;

        @Option(names = "--limit", paramLabel = "N", description = "show at most N (default 50)")
        Integer limit;

        @Option(names = "--body", description = "with their bodies")
        boolean body;

        @Override
        GatewayApiClient.Response call(GatewayApiClient api) throws Exception {
            Map<String, String> query = selection.filter();
            query.putAll(GatewayApiClient.parameters("ids", id, "offset", text(offset), "limit", text(limit),
                    "body", body || id != null ? "true" : null));
            return api.get("/api/dead-letters/messages", query);
        }

        @Override
        void render(JsonNode answer, PrintStream out) {
            DeadLetterTables.page(answer, out);
        }

        private static String text(Integer number) {
            return number == null ? null : number.toString();
        }
    }

    @Command(name = "redeliver", description = {"move the dead letters a filter selects back to their queues: --dry-run"
            + " or --execute", "Exit 1 when the gateway refused, or the run stopped or failed for one of them."})
    static final class Redeliver extends DeadLetterCall {

        @ArgGroup(multiplicity = "1")
        Mode mode;

        @Mixin
        Selection selection;

        @Option(names = "--rate", paramLabel = "N", description = "messages per second (default:"
                + " gateway.dead-letters.default-rate-per-second)")
        Integer rate;

        @Option(names = "--inbox-policy", paramLabel = "POLICY", description = "for dead letters the consumer's inbox"
                + " has applied: SKIP_APPLIED (default), REDELIVER_ALL or RELEASE_INBOX_AND_REDELIVER")
        String inboxPolicy;

        @Option(names = "--force", description = "also dead letters older than the replay horizon")
        boolean force;

        @Option(names = "--discard-applied", description = "with SKIP_APPLIED: remove the applied ones from their"
                + " queue")
        boolean discardApplied;

        @Override
        GatewayApiClient.Response call(GatewayApiClient api) throws Exception {
            ObjectNode body = JSON.createObjectNode();
            body.put("dryRun", mode.dryRun);
            ObjectNode filter = body.putObject("filter");
            selection.filter().forEach(filter::put);
            if (rate != null) {
                body.put("ratePerSecond", rate);
            }
            if (inboxPolicy != null) {
                body.put("inboxPolicy", inboxPolicy);
            }
            body.put("force", force);
            body.put("discardApplied", discardApplied);
            return api.post("/api/dead-letters/redeliver", JSON.writeValueAsString(body));
        }

        @Override
        void render(JsonNode answer, PrintStream out) {
            DeadLetterTables.redelivery(answer, out);
        }

        /** 1 when a dead letter failed or the run stopped. */
        @Override
        int status(JsonNode report) {
            return report.path("failed").asInt() > 0 || report.has("error") ? 1 : 0;
        }
    }

    /** Whether a redelivery moves anything: exactly one of the two. */
    static final class Mode {

        @Option(names = "--dry-run", required = true, description = "report what it would move, move nothing")
        boolean dryRun;

        @Option(names = "--execute", required = true, description = "move them")
        boolean execute;
    }

    /**
     * Which dead letters: the options of {@link DeadLetterFilter}, which {@code show} and {@code redeliver} share, read
     * by the filter's own factory.
     */
    static final class Selection {

        @Spec(Spec.Target.MIXEE)
        CommandSpec command;

        @Option(names = "--queue", paramLabel = "QUEUE", description = DeadLetterFilter.QUEUE_TEXT)
        String queue;

        @Option(names = "--type", paramLabel = "TYPE", description = DeadLetterFilter.TYPE_TEXT)
        String type;

        @Option(names = "--subject", paramLabel = "SUBJECT", description = DeadLetterFilter.SUBJECT_TEXT)
        String subject;

        @Option(names = "--reason-class", paramLabel = "CLASS", description = DeadLetterFilter.REASON_CLASS_TEXT)
        String reasonClass;

        @Option(names = "--reason", paramLabel = "TEXT", description = DeadLetterFilter.REASON_TEXT)
        String reason;

        @Option(names = "--consumer", paramLabel = "CONSUMER", description = DeadLetterFilter.CONSUMER_TEXT)
        String consumer;

        @Option(names = "--from", paramLabel = "ISO", description = DeadLetterFilter.FROM_TEXT)
        String from;

        @Option(names = "--to", paramLabel = "ISO", description = DeadLetterFilter.TO_TEXT)
        String to;

        @Option(names = "--ids", paramLabel = "ID,...", description = DeadLetterFilter.IDS_TEXT)
        String ids;

        /** The filter's conditions as the API's parameters; a value the filter refuses is bad usage. */
        Map<String, String> filter() {
            return FilterOptions.read(command, DeadLetterFilter::parse, GatewayApiClient.parameters(
                    DeadLetterFilter.QUEUE, queue, DeadLetterFilter.TYPE, type, DeadLetterFilter.SUBJECT, subject,
                    DeadLetterFilter.REASON_CLASS, reasonClass, DeadLetterFilter.REASON, reason,
                    DeadLetterFilter.CONSUMER, consumer, DeadLetterFilter.FROM, from, DeadLetterFilter.TO, to,
                    DeadLetterFilter.IDS, ids)).parameters();
        }
    }
}
