package io.legacygateway.inbox;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The event types and versions one consumer applies, such as {@code OrderCreated:1,OrderPaid:1,OrderPaid:2}. Every
 * other type or version is dead-lettered as {@link DeadLetterReason#UNKNOWN_TYPE}: acknowledging an event the consumer
 * does not understand would lose it.
 */
public record AcceptedTypes(Map<String, Set<Integer>> versions) {

    private static final Pattern ENTRY = Pattern.compile("([A-Za-z][A-Za-z0-9._-]{0,199}):([1-9][0-9]{0,8})");

    public AcceptedTypes {
        Map<String, Set<Integer>> copy = new LinkedHashMap<>();
        versions.forEach((t, v) -> copy.put(t, Collections.unmodifiableSet(new TreeSet<>(v))));
        versions = Collections.unmodifiableMap(copy);
    }

    /**
     * @param property names the parameter in errors
     * @throws IllegalArgumentException when the list is empty or an entry is not {@code Type:version}
     */
    public static AcceptedTypes parse(String property, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(property + ": at least one Type:version is required, for example "
                    + "OrderCreated:1,OrderPaid:1");
        }
        Map<String, Set<Integer>> versions = new LinkedHashMap<>();
        for (String entry : value.split(",")) {
            Matcher m = ENTRY.matcher(entry.strip());
            if (!m.matches()) {
                throw new IllegalArgumentException(property + ": '" + entry.strip()
                        + "' is not Type:version (a type name, a colon, a version >= 1)");
            }
            versions.computeIfAbsent(m.group(1), t -> new TreeSet<>()).add(Integer.parseInt(m.group(2)));
        }
        return new AcceptedTypes(versions);
    }

    public boolean accepts(String type, int version) {
        Set<Integer> v = versions.get(type);
        return v != null && v.contains(version);
    }

    public Set<String> types() {
        return versions.keySet();
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        versions.forEach((t, vs) -> vs.forEach(v -> s.append(s.isEmpty() ? "" : ",").append(t).append(':').append(v)));
        return s.toString();
    }
}
