package io.legacygateway.deadletter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.legacygateway.cli.GatewayApiClient;
import io.legacygateway.cli.GatewayCommand;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code java -jar gateway-app.jar dlq list|show|redeliver ...}: dead letters from the command line, through a running
 * gateway's REST API ({@link GatewayApiClient}: {@code --gateway=URL --user= --password=}), because the broker may be
 * embedded in the gateway. {@code redeliver} needs {@code --dry-run} or {@code --execute}: it never moves messages
 * by default. Exit status: 0 done, 1 the gateway refused or a redelivery stopped or failed, 2 bad usage.
 */
public class DeadLettersCommand implements GatewayCommand {

    static final String USAGE = """
            Usage: dlq list                       dead-letter queues and their dead letters grouped by reason and type
                   dlq show [FILTER] [--offset=0] [--limit=50] [--body]
                                                  the dead letters a filter selects, with their inbox status
                   dlq show ID                    one dead letter (JMS message id or event id) with its body
                                                  (--body and show ID need an OPERATOR login)
                   dlq redeliver (--dry-run | --execute) [FILTER] [--ids=ID,...] [--rate=N]
                                 [--inbox-policy=SKIP_APPLIED|REDELIVER_ALL|RELEASE_INBOX_AND_REDELIVER]
                                 [--force] [--discard-applied]
            FILTER: --queue=DLQ.x|x --type= --subject= --reason-class= --reason= --consumer= --from= --to= --ids=
            Gateway: --gateway=http://127.0.0.1:8080 --user= --password= (or GATEWAY_URL, GATEWAY_USER,
                     GATEWAY_PASSWORD); --json prints the API's JSON""";

    private static final Map<String, String> FILTER_OPTIONS = Map.of("queue", "queue", "type", "type", "subject",
            "subject", "reason-class", "reasonClass", "reason", "reason", "consumer", "consumer", "from", "from", "to",
            "to", "ids", "ids");
    private static final Set<String> FLAGS = Set.of("dry-run", "execute", "force", "discard-applied", "body", "json");

    private final ObjectMapper json = new ObjectMapper();

    @Override
    public int run(List<String> arguments, PrintStream out) throws Exception {
        List<String> args = new ArrayList<>(arguments);
        GatewayApiClient api = GatewayApiClient.from(args);
        Map<String, String> options = new LinkedHashMap<>();
        Set<String> flags = new LinkedHashSet<>();
        List<String> words = new ArrayList<>();
        for (String a : args) {
            if (a.startsWith("--") && a.contains("=")) {
                options.put(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
            } else if (a.startsWith("--")) {
                flags.add(a.substring(2));
            } else {
                words.add(a);
            }
        }
        for (String f : flags) {
            if (!FLAGS.contains(f)) {
                return usage(out, "unknown option --" + f);
            }
        }
        if (words.isEmpty()) {
            return usage(out, null);
        }
        Map<String, String> filter = new LinkedHashMap<>();
        for (Map.Entry<String, String> o : options.entrySet()) {
            if (FILTER_OPTIONS.containsKey(o.getKey())) {
                filter.put(FILTER_OPTIONS.get(o.getKey()), o.getValue());
            } else if (!Set.of("offset", "limit", "rate", "inbox-policy").contains(o.getKey())) {
                return usage(out, "unknown option --" + o.getKey());
            }
        }
        boolean raw = flags.contains("json");
        switch (words.get(0)) {
            case "list" -> {
                return words.size() == 1 ? list(api, raw, out) : usage(out, "list takes no arguments");
            }
            case "show" -> {
                if (words.size() > 2) {
                    return usage(out, "show takes at most one id");
                }
                if (words.size() == 2) {
                    filter.put("ids", words.get(1));
                    flags.add("body");
                }
                return show(api, filter, options, flags, raw, out);
            }
            case "redeliver" -> {
                if (words.size() != 1) {
                    return usage(out, "redeliver takes options only");
                }
                if (flags.contains("dry-run") == flags.contains("execute")) {
                    return usage(out, "redeliver needs exactly one of --dry-run and --execute");
                }
                return redeliver(api, filter, options, flags, raw, out);
            }
            default -> {
                return usage(out, "unknown subcommand '" + words.get(0) + "'");
            }
        }
    }

    private int list(GatewayApiClient api, boolean raw, PrintStream out) throws Exception {
        GatewayApiClient.Response r = api.get("/api/dead-letters", Map.of());
        if (!r.ok() || raw) {
            return print(r, out);
        }
        JsonNode o = json.readTree(r.body());
        out.printf("Dead-letter address %s: %d queue(s), %d dead letter(s) examined%n", o.path("address").asText(),
                o.path("queues").size(), o.path("examined").asInt());
        out.printf("%-40s %8s  %s%n", "QUEUE", "DEPTH", "ORIGINAL ADDRESS");
        for (JsonNode q : o.path("queues")) {
            out.printf("%-40s %8d  %s%n", q.path("name").asText(), q.path("depth").asLong(),
                    text(q, "originalAddress"));
        }
        out.println();
        if (o.path("groups").isEmpty()) {
            out.println("No dead letters.");
        } else {
            out.printf("%-32s %-18s %-18s %5s %7s  %-20s  %-20s  %s%n", "QUEUE", "REASON CLASS", "EVENT TYPE",
                    "COUNT", "APPLIED", "OLDEST", "NEWEST", "REASON");
            for (JsonNode g : o.path("groups")) {
                out.printf("%-32s %-18s %-18s %5d %7d  %-20s  %-20s  %s%n", g.path("queue").asText(),
                        text(g, "reasonClass"), text(g, "eventType"), g.path("count").asInt(), g.path("applied").asInt(),
                        time(g, "oldest"), time(g, "newest"), shorten(text(g, "reason"), 120));
            }
        }
        for (JsonNode t : o.path("truncated")) {
            out.println("Only the first messages of " + t.asText() + " were examined (gateway.dead-letters.browse-limit).");
        }
        return 0;
    }

    private int show(GatewayApiClient api, Map<String, String> filter, Map<String, String> options, Set<String> flags,
                     boolean raw, PrintStream out) throws Exception {
        Map<String, String> query = new LinkedHashMap<>(filter);
        query.put("offset", options.get("offset"));
        query.put("limit", options.get("limit"));
        query.put("body", flags.contains("body") ? "true" : null);
        GatewayApiClient.Response r = api.get("/api/dead-letters/messages", query);
        if (!r.ok() || raw) {
            return print(r, out);
        }
        JsonNode page = json.readTree(r.body());
        out.printf("%d dead letter(s) selected; showing %d from %d%n", page.path("total").asInt(),
                page.path("messages").size(), page.path("offset").asInt());
        for (JsonNode m : page.path("messages")) {
            out.println();
            out.printf("%s on %s (from %s)%n", m.path("messageId").asText(), m.path("queue").asText(),
                    text(m, "originalQueue").equals("-") ? text(m, "originalAddress")
                            : text(m, "originalAddress") + "::" + text(m, "originalQueue"));
            out.printf("  event %s  type %s  subject %s  group %s%n", text(m, "eventId"), text(m, "eventType"),
                    text(m, "subject"), text(m, "groupId"));
            out.printf("  %s at %s by %s, delivery %s, redelivered %d time(s) before%n", text(m, "reasonClass"),
                    text(m, "deadLetteredAt"), text(m, "consumer"), text(m, "deliveryCount"),
                    m.path("redeliveryCount").asInt());
            out.printf("  reason: %s%n", text(m, "reason"));
            JsonNode inbox = m.path("inbox");
            out.printf("  inbox: %s%s%n", text(inbox, "state"), inbox.has("consumer") ? " (consumer "
                    + text(inbox, "consumer") + ")" : "");
            if (m.has("body")) {
                out.printf("  body: %s%n", m.path("body").asText());
            }
        }
        return 0;
    }

    private int redeliver(GatewayApiClient api, Map<String, String> filter, Map<String, String> options,
                          Set<String> flags, boolean raw, PrintStream out) throws Exception {
        ObjectNode body = json.createObjectNode();
        body.put("dryRun", flags.contains("dry-run"));
        ObjectNode f = body.putObject("filter");
        filter.forEach(f::put);
        if (options.containsKey("rate")) {
            try {
                body.put("ratePerSecond", Integer.parseInt(options.get("rate")));
            } catch (NumberFormatException e) {
                return usage(out, "--rate: '" + options.get("rate") + "' is not an integer");
            }
        }
        if (options.containsKey("inbox-policy")) {
            body.put("inboxPolicy", options.get("inbox-policy"));
        }
        body.put("force", flags.contains("force"));
        body.put("discardApplied", flags.contains("discard-applied"));
        GatewayApiClient.Response r = api.post("/api/dead-letters/redeliver", json.writeValueAsString(body));
        if (!r.ok() || raw) {
            int status = print(r, out);
            return status != 0 ? status : json.readTree(r.body()).path("failed").asInt() > 0
                    || json.readTree(r.body()).has("error") ? 1 : 0;
        }
        JsonNode report = json.readTree(r.body());
        out.println((report.path("dryRun").asBoolean() ? "DRY RUN (nothing moved): " : "")
                + "selected " + report.path("selected").asInt() + ": "
                + (report.path("dryRun").asBoolean() ? "would move " : "moved ") + report.path("moved").asInt()
                + ", skipped (applied) " + report.path("skippedApplied").asInt() + ", discarded (applied) "
                + report.path("discarded").asInt() + ", inbox rows released " + report.path("released").asInt()
                + ", refused " + report.path("refused").asInt() + ", gone " + report.path("gone").asInt()
                + ", failed " + report.path("failed").asInt() + ", not attempted "
                + report.path("notAttempted").asInt());
        out.println("Selection: " + report.path("selection").asText());
        for (JsonNode w : report.path("warnings")) {
            out.println("WARNING: " + w.asText());
        }
        if (report.has("error")) {
            out.println("STOPPED: " + report.path("error").asText());
        }
        if (!report.path("items").isEmpty()) {
            out.printf("%-26s %-42s %-46s %-17s %s%n", "OUTCOME", "MESSAGE", "EVENT", "INBOX", "TARGET / DETAIL");
            for (JsonNode i : report.path("items")) {
                out.printf("%-26s %-42s %-46s %-17s %s%s%n", i.path("outcome").asText(), i.path("messageId").asText(),
                        text(i, "eventId"), text(i.path("inbox"), "state"), text(i, "target"),
                        i.has("detail") ? " (" + i.path("detail").asText() + ")" : "");
            }
        }
        return report.path("failed").asInt() > 0 || report.has("error") ? 1 : 0;
    }

    private static int print(GatewayApiClient.Response r, PrintStream out) {
        out.println(r.body());
        if (r.ok()) {
            return 0;
        }
        out.println("The gateway answered HTTP " + r.status());
        return r.status() == 400 ? 2 : 1;
    }

    private static int usage(PrintStream out, String problem) {
        if (problem != null) {
            out.println("dlq: " + problem);
        }
        out.println(USAGE);
        return 2;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isMissingNode() || v.isNull() ? "-" : v.asText();
    }

    /** An instant to the second, for tables. */
    private static String time(JsonNode node, String field) {
        String t = text(node, field);
        try {
            return java.time.Instant.parse(t).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        } catch (java.time.format.DateTimeParseException e) {
            return t;
        }
    }

    private static String shorten(String s, int max) {
        String oneLine = s.replaceAll("\\s+", " ");
        return oneLine.length() <= max ? oneLine : oneLine.substring(0, max - 1) + "…";
    }
}
