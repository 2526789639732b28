package io.legacygateway.deadletter;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An operator's redelivery: which dead letters, whether for real, how fast, and what to do with those already applied.
 *
 * @param filter         the selection ({@link DeadLetterFilter}: queue, filter conditions and ids together)
 * @param dryRun         report what would happen and change nothing
 * @param ratePerSecond  messages per second; {@code null} for {@code gateway.dead-letters.default-rate-per-second}
 * @param inboxPolicy    what to do with dead letters the consumer's inbox has applied already
 * @param force          redeliver also dead letters older than the replay horizon
 * @param discardApplied with {@link InboxPolicy#SKIP_APPLIED}: remove applied dead letters from their queue instead of
 *                       leaving them there
 */
public record RedeliveryRequest(DeadLetterFilter filter, boolean dryRun, Integer ratePerSecond,
                                InboxPolicy inboxPolicy, boolean force, boolean discardApplied) {

    /** The fields of the REST body. */
    public static final List<String> FIELDS = List.of("queue", "filter", "ids", "dryRun", "ratePerSecond",
            "inboxPolicy", "force", "discardApplied");
    /** Highest rate an operator may ask for. */
    public static final int MAX_RATE = 10_000;

    public RedeliveryRequest {
        if (filter == null) {
            filter = DeadLetterFilter.ALL;
        }
        if (inboxPolicy == null) {
            inboxPolicy = InboxPolicy.SKIP_APPLIED;
        }
        if (ratePerSecond != null && (ratePerSecond < 1 || ratePerSecond > MAX_RATE)) {
            throw new IllegalArgumentException("ratePerSecond: " + ratePerSecond + " is outside 1-" + MAX_RATE);
        }
        if (discardApplied && inboxPolicy != InboxPolicy.SKIP_APPLIED) {
            throw new IllegalArgumentException("discardApplied: only with inboxPolicy SKIP_APPLIED (with "
                    + inboxPolicy + " applied dead letters are redelivered)");
        }
    }

    /**
     * Reads the JSON body of {@code POST /api/dead-letters/redeliver}:
     * {@code {queue?, filter?: {type, subject, reasonClass, reason, consumer, from, to}, ids?: [..], dryRun,
     * ratePerSecond?, inboxPolicy?, force?, discardApplied?}}. {@code dryRun} is required, so that a misspelt field
     * never turns a dry run into a real one; unknown fields are refused.
     *
     * @throws IllegalArgumentException naming the field that is missing, unknown or wrong
     */
    public static RedeliveryRequest fromJson(Map<String, Object> body) {
        Map<String, Object> b = body == null ? Map.of() : body;
        for (String key : b.keySet()) {
            if (!FIELDS.contains(key)) {
                throw new IllegalArgumentException("unknown field '" + key + "'; fields: " + FIELDS);
            }
        }
        if (!(b.get("dryRun") instanceof Boolean dryRun)) {
            throw new IllegalArgumentException("dryRun is required: true to see what would be redelivered, false to "
                    + "redeliver");
        }
        Map<String, String> filter = new LinkedHashMap<>();
        Object f = b.get("filter");
        if (f instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                if (String.valueOf(k).equals("ids") && v instanceof Collection<?> c) {
                    filter.put("ids", c.stream().map(String::valueOf).collect(Collectors.joining(",")));
                } else {
                    filter.put(String.valueOf(k), v == null ? null : String.valueOf(v));
                }
            });
        } else if (f instanceof String text) {
            DeadLetterFilter parsed = DeadLetterFilter.parse(text);
            return build(b, dryRun, parsed);
        } else if (f != null) {
            throw new IllegalArgumentException("filter must be an object such as {\"type\": \"OrderCreated\"}");
        }
        return build(b, dryRun, DeadLetterFilter.parse(filter));
    }

    private static RedeliveryRequest build(Map<String, Object> b, boolean dryRun, DeadLetterFilter filter) {
        Object queue = b.get("queue");
        if (queue != null) {
            if (filter.queue() != null && !filter.queue().equals(queue.toString())) {
                throw new IllegalArgumentException("queue '" + queue + "' and filter.queue '" + filter.queue()
                        + "' differ");
            }
            filter = filter.withQueue(queue.toString());
        }
        Object ids = b.get("ids");
        if (ids instanceof Collection<?> c) {
            filter = filter.withIds(c.stream().map(String::valueOf).collect(Collectors.toCollection(
                    LinkedHashSet::new)));
        } else if (ids instanceof String s) {
            filter = filter.withIds(Arrays.stream(s.split(",")).map(String::strip).filter(x -> !x.isEmpty())
                    .collect(Collectors.toCollection(LinkedHashSet::new)));
        } else if (ids != null) {
            throw new IllegalArgumentException("ids must be a list of message ids or event ids");
        }
        Integer rate = null;
        Object r = b.get("ratePerSecond");
        if (r instanceof Number n && n.doubleValue() == n.intValue()) {
            rate = n.intValue();
        } else if (r != null) {
            throw new IllegalArgumentException("ratePerSecond must be an integer (1-" + MAX_RATE + ")");
        }
        return new RedeliveryRequest(filter, dryRun, rate, policy(b.get("inboxPolicy")), bool(b, "force"),
                bool(b, "discardApplied"));
    }

    /** Parses an inbox policy name, ignoring case; {@code null} for none. */
    public static InboxPolicy policy(Object value) {
        if (value == null || value.toString().isBlank()) {
            return null;
        }
        try {
            return InboxPolicy.valueOf(value.toString().strip().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("inboxPolicy: '" + value + "' is not one of "
                    + Arrays.toString(InboxPolicy.values()));
        }
    }

    private static boolean bool(Map<String, Object> b, String key) {
        Object v = b.get(key);
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean flag) {
            return flag;
        }
        throw new IllegalArgumentException(key + " must be true or false");
    }

    /** The selection and options as text, for the audit trail. */
    public String describe(int rate) {
        return filter.describe() + " inboxPolicy=" + inboxPolicy + " force=" + force
                + (discardApplied ? " discardApplied=true" : "") + " ratePerSecond=" + rate;
    }

    /** The ids asked for, for checks. */
    Set<String> ids() {
        return filter.ids();
    }
}
