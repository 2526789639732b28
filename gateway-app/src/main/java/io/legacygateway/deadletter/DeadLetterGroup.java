package io.legacygateway.deadletter;

import java.time.Instant;
import java.util.regex.Pattern;

/**
 * Dead letters that share queue, reason class, reason and event type. Reasons name per-message values (the bound
 * values of an SQL effect, a column number, an id), so they are grouped by their {@linkplain #pattern pattern}: the
 * reason with such values masked; {@code example} is the reason of one of them as written.
 *
 * @param reason  the reason pattern shared by the group
 * @param example the full reason of the group's oldest dead letter
 * @param applied how many of them the consumer's inbox has applied already (a replay would be skipped)
 * @param oldest  earliest {@link DeadLetter#deadLetteredAt()}
 * @param newest  latest {@link DeadLetter#deadLetteredAt()}
 */
public record DeadLetterGroup(String queue, String reasonClass, String reason, String eventType, int count,
                              int applied, Instant oldest, Instant newest, String example) {

    private static final Pattern BOUND_VALUE = Pattern.compile("(:[A-Za-z_][A-Za-z0-9_.]*)=[^,]*");
    private static final Pattern QUOTED = Pattern.compile("'[^']*'");
    private static final Pattern UUID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.:\\-])\\d+(?:\\.\\d+)?(?![\\w\\-]|\\.\\w)");

    /**
     * A reason with its per-message values masked: bound values ({@code :data.amount=5} → {@code :data.amount=…}),
     * quoted text and UUIDs ({@code …}) and standalone numbers ({@code #}).
     */
    public static String pattern(String reason) {
        if (reason == null) {
            return null;
        }
        String r = BOUND_VALUE.matcher(reason).replaceAll("$1=…");
        r = QUOTED.matcher(r).replaceAll("'…'");
        r = UUID.matcher(r).replaceAll("…");
        return NUMBER.matcher(r).replaceAll("#");
    }
}
