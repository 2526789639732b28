package io.legacygateway.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as an operator writes them in the configuration: {@code 7d}, {@code 1h30m}, {@code 31s}, {@code 500ms};
 * also ISO-8601 ({@code PT30S}) and plain milliseconds ({@code 30000}). The gateway parses a duration parameter once,
 * here, and hands Camel and its own code the number: Camel's options that take a {@code long} do not convert text such
 * as {@code 30s}, and Camel's own lenient parser reads {@code 30x} or {@code PT30S} as 0.
 */
public final class DurationText {

    /** The forms {@link #parse} accepts, for error messages. */
    public static final String FORMS = "500ms, 30s, 5m, 1h30m, 7d, ISO-8601 PT30S, or milliseconds 30000";

    private static final Pattern UNITS = Pattern.compile(
            "(?:(\\d{1,9})d)?(?:(\\d{1,9})h)?(?:(\\d{1,9})m)?(?:(\\d{1,9})s)?(?:(\\d{1,12})ms)?");
    private static final Pattern MILLIS = Pattern.compile("\\d{1,15}");

    private DurationText() {
    }

    /**
     * Parses one of the {@link #FORMS}: units in the order d, h, m, s, ms, each at most once (lower case, no spaces);
     * ISO-8601 as {@link Duration#parse}; digits alone are milliseconds.
     *
     * @throws IllegalArgumentException when {@code text} is none of them (never a silent 0)
     */
    public static Duration parse(String text) {
        String t = text == null ? "" : text.strip();
        if (MILLIS.matcher(t).matches()) {
            return Duration.ofMillis(Long.parseLong(t));
        }
        if (t.startsWith("P") || t.startsWith("p") || t.startsWith("-P")) {
            try {
                return Duration.parse(t);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("'" + text + "' is not an ISO-8601 duration");
            }
        }
        Matcher m = UNITS.matcher(t);
        if (t.isEmpty() || !m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (" + FORMS + ")");
        }
        Duration d = Duration.ZERO;
        long[] unitMillis = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};
        for (int i = 0; i < unitMillis.length; i++) {
            if (m.group(i + 1) != null) {
                d = d.plusMillis(Math.multiplyExact(Long.parseLong(m.group(i + 1)), unitMillis[i]));
            }
        }
        return d;
    }

    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        StringBuilder out = new StringBuilder();
        long days = d.toDays();
        long hours = d.toHoursPart();
        long minutes = d.toMinutesPart();
        long seconds = d.toSecondsPart();
        long millis = d.toMillisPart();
        if (days > 0) {
            out.append(days).append('d');
        }
        if (hours > 0) {
            out.append(hours).append('h');
        }
        if (minutes > 0) {
            out.append(minutes).append('m');
        }
        if (seconds > 0) {
            out.append(seconds).append('s');
        }
        if (millis > 0) {
            out.append(millis).append("ms");
        }
        return out.toString();
    }
}
