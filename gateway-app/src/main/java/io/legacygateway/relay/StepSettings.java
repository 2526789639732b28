package io.legacygateway.relay;

import io.legacygateway.steps.EventStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A relay's steps as declared ({@code filter}, {@code transform}, {@code steps}, {@code alsoPublish} with its
 * {@code asVersion.<version>} steps), their syntax checked; compiled by {@link RelaySteps}. Each step is {@code null}
 * when not given.
 */
public record StepSettings(EventStep filter, String filterReason, EventStep transform, EventStep route,
                           List<Copy> copies) {

    /** {@code asVersion.<version>}: the step that turns an event's data into that version, for {@code alsoPublish}. */
    static final String AS_VERSION = "asVersion";
    public static final String AS_VERSION_DESCRIPTION = "Step (`jq:…`, `simple:…`, `xpath:…`, `xslt:<resource>`,"
            + " `direct:<route>`) that turns the event's data, as the other steps left it, into version `<version>`"
            + " for `alsoPublish` (not run for an event of that version already)";
    private static final Pattern AS_VERSION_KEY = Pattern.compile(AS_VERSION + "\\.([1-9][0-9]{0,8})");

    /** {@code alsoPublish}: a copy of each event as {@code version}, to {@code destination}, made by {@code step}. */
    public record Copy(int version, Destination destination, EventStep step) {
    }

    public boolean none() {
        return filter == null && transform == null && route == null && copies.isEmpty();
    }

    /** Whether {@code parameter} is an {@code asVersion.<version>} step. */
    static boolean isAsVersion(String parameter) {
        return AS_VERSION_KEY.matcher(parameter).matches();
    }

    /**
     * Reads the steps' parameters.
     *
     * @param given every parameter as given ({@code asVersion.<version>} among them)
     * @throws IllegalArgumentException naming the parameter
     */
    static StepSettings parse(RelayParameters p, Map<String, String> given, UnaryOperator<String> label) {
        EventStep route = p.steps().isBlank() ? null : EventStep.parse(label.apply("steps"), p.steps(), false);
        if (route != null && !route.toString().startsWith("direct:")) {
            throw new IllegalArgumentException(label.apply("steps") + ": '" + p.steps() + "' is not a direct:<route>;"
                    + " an expression or a stylesheet goes in transform");
        }
        return new StepSettings(p.filter().isBlank() ? null : EventStep.parse(label.apply("filter"), p.filter(), true),
                p.filterReason(),
                p.transform().isBlank() ? null : EventStep.parse(label.apply("transform"), p.transform(), false),
                route, copies(p.alsoPublish(), given, label));
    }

    /**
     * {@code alsoPublish} with the {@code asVersion.<version>} step of each entry: every entry needs its step, every
     * step its entry, a destination appears once.
     */
    private static List<Copy> copies(String alsoPublish, Map<String, String> given, UnaryOperator<String> label) {
        Map<Integer, EventStep> stepOf = new TreeMap<>();
        given.forEach((k, v) -> {
            Matcher m = AS_VERSION_KEY.matcher(k);
            if (m.matches()) {
                stepOf.put(Integer.parseInt(m.group(1)), EventStep.parse(label.apply(k), v, false));
            }
        });
        List<Copy> copies = new ArrayList<>();
        Set<String> destinations = new TreeSet<>();
        for (String entry : alsoPublish.isBlank() ? new String[0] : alsoPublish.split(",")) {
            String e = entry.strip();
            int at = e.indexOf('@');
            int version = versionOf(e, at);
            if (version < 1) {
                throw new IllegalArgumentException(label.apply("alsoPublish") + ": '" + e + "' is not"
                        + " <version>@<destination> with a version >= 1, e.g. 2@queue:orders.v2");
            }
            Destination d = Destination.parse(label.apply("alsoPublish"), e.substring(at + 1).strip());
            if (!destinations.add(d.toString())) {
                throw new IllegalArgumentException(label.apply("alsoPublish") + ": destination '" + d
                        + "' appears twice");
            }
            Copy same = copies.stream().filter(c -> c.version() == version).findFirst().orElse(null);
            EventStep step = same != null ? same.step() : stepOf.remove(version);
            if (step == null) {
                throw new IllegalArgumentException(label.apply(AS_VERSION + "." + version) + ": required by"
                        + " alsoPublish '" + e + "': the step that turns an event's data into version " + version);
            }
            copies.add(new Copy(version, d, step));
        }
        if (!stepOf.isEmpty()) {
            int v = stepOf.keySet().iterator().next();
            throw new IllegalArgumentException(label.apply(AS_VERSION + "." + v) + ": no alsoPublish entry is"
                    + " version " + v);
        }
        return List.copyOf(copies);
    }

    private static int versionOf(String entry, int at) {
        try {
            return at > 0 ? Integer.parseInt(entry.substring(0, at).strip()) : 0;
        } catch (NumberFormatException x) {
            return 0;
        }
    }
}
