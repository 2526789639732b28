package io.legacygateway.relay;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a relay publishes: a fixed address or a pattern over the event, such as {@code queue:orders.events} or
 * {@code topic:events.{aggregateType}.{eventType}}. {@code queue:} (the default prefix) means an anycast address with
 * one queue of the same name; {@code topic:} a multicast address.
 *
 * <p>A name resolved from row values must match {@link #SAFE}; otherwise that row is rejected with the reason.
 */
public record Destination(boolean topic, String pattern) {

    static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(eventType|aggregateType)}");
    private static final Pattern ANY_PLACEHOLDER = Pattern.compile("\\{[^}]*}");

    /**
     * @throws IllegalArgumentException naming {@code property} when the pattern is empty, uses an unknown
     *                                  placeholder or contains unsafe characters
     */
    public static Destination parse(String property, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(property + ": a destination is required, for example queue:orders.events");
        }
        boolean topic = value.startsWith("topic:");
        String pattern = value.replaceFirst("^(queue|topic):", "");
        String withoutPlaceholders = PLACEHOLDER.matcher(pattern).replaceAll("x");
        if (ANY_PLACEHOLDER.matcher(withoutPlaceholders).find()) {
            throw new IllegalArgumentException(property + ": '" + value
                    + "' uses an unknown placeholder; known: {eventType}, {aggregateType}");
        }
        if (!SAFE.matcher(withoutPlaceholders).matches()) {
            throw new IllegalArgumentException(property + ": '" + value + "' is not a safe address name ("
                    + SAFE.pattern() + " after the queue:/topic: prefix)");
        }
        return new Destination(topic, pattern);
    }

    /** The address name for one event, or {@code null} when the event's values make it unsafe. */
    String resolve(String eventType, String aggregateType) {
        Matcher m = PLACEHOLDER.matcher(pattern);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = m.group(1).equals("eventType") ? eventType : aggregateType;
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? "" : value));
        }
        m.appendTail(out);
        String name = out.toString();
        return SAFE.matcher(name).matches() ? name : null;
    }

    boolean fixed() {
        return !PLACEHOLDER.matcher(pattern).find();
    }

    @Override
    public String toString() {
        return (topic ? "topic:" : "queue:") + pattern;
    }
}
