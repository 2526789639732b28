package io.legacygateway.relay;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a relay publishes: a fixed address or a pattern over the event, such as {@code queue:orders.events} or
 * {@code topic:events.{aggregateType}.{eventType}}. {@code queue:} (the default prefix) means an anycast address with
 * one queue of the same name; {@code topic:} a multicast address.
 *
 * <p>A name resolved from row values must match {@link #SAFE}; otherwise that row is rejected with the reason.
 */
public final class Destination {

    static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(eventType|aggregateType)}");
    private static final Pattern ANY_PLACEHOLDER = Pattern.compile("\\{[^}]*}");
    private static final String EVENT_TYPE = "{eventType}";
    private static final String AGGREGATE_TYPE = "{aggregateType}";

    private final boolean topic;
    private final String pattern;
    /** {@link #split} of the pattern. */
    private final String[] parts;
    /** A fixed address, when it is safe ({@code null} otherwise). */
    private final String fixedName;

    public Destination(boolean topic, String pattern) {
        this.topic = topic;
        this.pattern = pattern;
        this.parts = split(pattern);
        this.fixedName = parts.length == 1 && safe(pattern) ? pattern : null;
    }

    /** Whether the address is multicast ({@code topic:}). */
    public boolean topic() {
        return topic;
    }

    /** The address pattern, without its {@code queue:}/{@code topic:} prefix. */
    public String pattern() {
        return pattern;
    }

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

    /**
     * The address name for one event, or {@code null} when the event's values make it unsafe. Called per event: the
     * pattern is taken apart once ({@link #split}), and a fixed address is checked once.
     */
    String resolve(String eventType, String aggregateType) {
        if (parts.length == 1) {
            return fixedName;
        }
        StringBuilder out = new StringBuilder(pattern.length() + 32);
        for (String part : parts) {
            switch (part) {
                case EVENT_TYPE -> out.append(eventType == null ? "" : eventType);
                case AGGREGATE_TYPE -> out.append(aggregateType == null ? "" : aggregateType);
                default -> out.append(part);
            }
        }
        return safe(out) ? out.toString() : null;
    }

    boolean fixed() {
        return parts.length == 1;
    }

    /** As {@link #SAFE}, without a matcher per event. */
    private static boolean safe(CharSequence name) {
        int n = name.length();
        if (n < 1 || n > 200) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.'
                    || c == '_' || c == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * The pattern as literal text and placeholders ({@link #EVENT_TYPE}, {@link #AGGREGATE_TYPE}, the same String
     * instances), in order; one element for a fixed address.
     */
    private static String[] split(String pattern) {
        List<String> parts = new ArrayList<>();
        Matcher m = PLACEHOLDER.matcher(pattern);
        int from = 0;
        while (m.find()) {
            if (m.start() > from) {
                parts.add(pattern.substring(from, m.start()));
            }
            parts.add(m.group(1).equals("eventType") ? EVENT_TYPE : AGGREGATE_TYPE);
            from = m.end();
        }
        if (from < pattern.length() || parts.isEmpty()) {
            parts.add(pattern.substring(from));
        }
        if (parts.size() == 1 && (parts.get(0) == EVENT_TYPE || parts.get(0) == AGGREGATE_TYPE)) {
            parts.add(""); // a lone placeholder is not a fixed address
        }
        return parts.toArray(String[]::new);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Destination d && d.topic == topic && d.pattern.equals(pattern);
    }

    @Override
    public int hashCode() {
        return Boolean.hashCode(topic) * 31 + pattern.hashCode();
    }

    @Override
    public String toString() {
        return (topic ? "topic:" : "queue:") + pattern;
    }
}
