package io.legacygateway.deadletter;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * The {@code dlq} command's text: the REST API's answers ({@link DeadLetterOverview}, {@link DeadLetterPage},
 * {@link RedeliveryReport} as JSON) as tables and lines for a terminal. A missing field prints as {@code -}.
 */
final class DeadLetterTables {

    private DeadLetterTables() {
    }

    /** {@code dlq list}: the queues with their depth, then the groups of dead letters. */
    static void overview(JsonNode o, PrintStream out) {
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
    }

    /** {@code dlq show}: the selected dead letters, one block each. */
    static void page(JsonNode page, PrintStream out) {
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
    }

    /** {@code dlq redeliver}: the counts, the warnings, where it stopped, and one line per dead letter. */
    static void redelivery(JsonNode report, PrintStream out) {
        boolean dryRun = report.path("dryRun").asBoolean();
        out.println((dryRun ? "DRY RUN (nothing moved): " : "")
                + "selected " + report.path("selected").asInt() + ": "
                + (dryRun ? "would move " : "moved ") + report.path("moved").asInt()
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
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isMissingNode() || v.isNull() ? "-" : v.asText();
    }

    /** An instant to the second, for tables. */
    private static String time(JsonNode node, String field) {
        String t = text(node, field);
        try {
            return Instant.parse(t).truncatedTo(ChronoUnit.SECONDS).toString();
        } catch (DateTimeParseException e) {
            return t;
        }
    }

    private static String shorten(String s, int max) {
        String oneLine = s.replaceAll("\\s+", " ");
        return oneLine.length() <= max ? oneLine : oneLine.substring(0, max - 1) + "…";
    }
}
