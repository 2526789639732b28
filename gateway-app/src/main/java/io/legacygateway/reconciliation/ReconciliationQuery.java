package io.legacygateway.reconciliation;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which part of the reconciliation report an operator asks for. The one place that knows its fields: the REST query,
 * the {@code reconcile} command's arguments ({@code ReconcileCommand.Selection}) and the JMX arguments are all read by
 * {@link #from(Map)}, under the keys below.
 *
 * @param relay    one relay's name, or {@code null} for every relay
 * @param all      also list intents decided DOMAIN_AND_INTENT_COMMITTED (they are always counted)
 * @param intentId only this intent (event id), or {@code null}
 */
public record ReconciliationQuery(String relay, boolean all, String intentId) {

    public static final String RELAY = "relay";
    public static final String ALL = "all";
    public static final String INTENT_ID = "intentId";

    static final String RELAY_TEXT = "only this relay's intents (default: every relay's)";
    static final String ALL_TEXT = "every intent, also those that need no attention (decided"
            + " DOMAIN_AND_INTENT_COMMITTED)";
    static final String INTENT_ID_TEXT = "only the intent of this id (its Intent ID in the report)";

    private static final Set<String> TRUE = Set.of("true", "on", "yes", "1");
    private static final Set<String> FALSE = Set.of("false", "off", "no", "0");

    /**
     * Reads the query from text values; blank values are the defaults, other keys are left to the caller (the REST
     * {@code format}).
     *
     * @throws IllegalArgumentException naming the key and value that is not valid
     */
    public static ReconciliationQuery from(Map<String, String> values) {
        return new ReconciliationQuery(text(values.get(RELAY)), bool(ALL, values.get(ALL)),
                text(values.get(INTENT_ID)));
    }

    /** The query's values as {@link #from(Map)} reads them. */
    public Map<String, String> parameters() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put(ALL, String.valueOf(all));
        if (intentId != null) {
            values.put(INTENT_ID, intentId);
        }
        if (relay != null) {
            values.put(RELAY, relay);
        }
        return values;
    }

    private static String text(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static boolean bool(String key, String value) {
        String v = text(value);
        if (v == null || FALSE.contains(v.toLowerCase(Locale.ROOT))) {
            return false;
        }
        if (TRUE.contains(v.toLowerCase(Locale.ROOT))) {
            return true;
        }
        throw new IllegalArgumentException(key + ": '" + value + "' is not true or false");
    }
}
