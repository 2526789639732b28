package io.legacygateway.adapters.outbox.mapping;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A value a table lacks, given in configuration: a constant such as {@code Order}, or a simple expression over the
 * row's other values such as {@code billing-{key}} or {@code {aggregateType}Changed}. Placeholders are
 * {@code {name}}; everything else is literal text. Evaluated in Java, never in SQL.
 */
public final class ValueTemplate {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z]+)}");

    private final String text;
    private final List<String> placeholders;

    private ValueTemplate(String text, List<String> placeholders) {
        this.text = text;
        this.placeholders = placeholders;
    }

    /**
     * @param allowed placeholders this value may use
     * @param property names the parameter in errors
     * @throws IllegalArgumentException naming the property for an empty template, an unknown placeholder or a stray
     *                                  brace
     */
    public static ValueTemplate parse(String property, String text, Set<String> allowed) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(property + ": must not be empty");
        }
        List<String> used = new ArrayList<>();
        Matcher m = PLACEHOLDER.matcher(text);
        while (m.find()) {
            if (!allowed.contains(m.group(1))) {
                throw new IllegalArgumentException(property + ": unknown placeholder {" + m.group(1) + "} in '" + text
                        + "'; this value may use " + allowed.stream().sorted().map(a -> "{" + a + "}").toList());
            }
            used.add(m.group(1));
        }
        if (PLACEHOLDER.matcher(text).replaceAll("").matches(".*[{}].*")) {
            throw new IllegalArgumentException(property + ": unbalanced brace in '" + text + "'");
        }
        return new ValueTemplate(text, List.copyOf(used));
    }

    /** True when the value has no placeholders: the same for every row. */
    public boolean constant() {
        return placeholders.isEmpty();
    }

    /** The placeholders it uses. */
    public List<String> placeholders() {
        return placeholders;
    }

    /** The value for one row; a placeholder whose value is missing becomes the empty string. */
    public String evaluate(Map<String, String> values) {
        if (placeholders.isEmpty()) {
            return text;
        }
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = values.get(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(v == null ? "" : v));
        }
        m.appendTail(out);
        return out.toString();
    }

    @Override
    public String toString() {
        return text;
    }
}
