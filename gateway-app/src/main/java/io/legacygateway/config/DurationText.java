package io.legacygateway.config;

import java.time.Duration;

/** Durations as an operator writes them in the configuration: {@code 7d}, {@code 1h30m}, {@code 31s}, {@code 500ms}. */
public final class DurationText {

    private DurationText() {
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
