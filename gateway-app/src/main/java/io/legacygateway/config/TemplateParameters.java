package io.legacygateway.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The parameters of one route-template instance (an {@code outbox-relay} or {@code inbox-consumer} from YAML), read as
 * typed values. Every error names the parameter through {@code label}, for example
 * {@code outbox-relay 'orders' parameter 'batchSize': 0 is outside 1-1000}.
 */
public final class TemplateParameters {

    /** A template parameter with its default ({@code null}: required) and description, as the README lists them. */
    public interface Parameter {
        String key();

        String defaultValue();

        String description();
    }

    private final Map<String, String> values;
    private final UnaryOperator<String> label;

    private TemplateParameters(Map<String, String> values, UnaryOperator<String> label) {
        this.values = values;
        this.label = label;
    }

    /** @param label turns a parameter key into the phrase errors start with */
    public static TemplateParameters of(Map<String, Object> raw, UnaryOperator<String> label) {
        Map<String, String> v = new LinkedHashMap<>();
        raw.forEach((k, o) -> v.put(k, o == null ? null : o.toString()));
        return new TemplateParameters(Collections.unmodifiableMap(v), label);
    }

    /** The same parameters, with errors labelled another way (once the instance's name is known). */
    public TemplateParameters labelled(UnaryOperator<String> other) {
        return new TemplateParameters(values, other);
    }

    /** The given values by key, as text ({@code null} values kept). */
    public Map<String, String> given() {
        return values;
    }

    public String label(String key) {
        return label.apply(key);
    }

    /** The value, stripped, or the parameter's default when not given. */
    public String value(Parameter p) {
        String v = values.get(p.key());
        return v == null ? p.defaultValue() : v.strip();
    }

    public String required(Parameter p) {
        String v = values.get(p.key());
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(label(p.key()) + " is required: " + p.description());
        }
        return v.strip();
    }

    public boolean bool(Parameter p) {
        String v = value(p).toLowerCase(Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException(label(p.key()) + ": '" + values.get(p.key()) + "' is not true or false");
        }
        return Boolean.parseBoolean(v);
    }

    public int integer(Parameter p, int min, int max) {
        int v;
        try {
            v = Integer.parseInt(value(p));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(label(p.key()) + ": '" + values.get(p.key()) + "' is not an integer");
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException(label(p.key()) + ": " + v + " is outside " + min + "-" + max);
        }
        return v;
    }

    /** A positive duration in one of the {@link DurationText#FORMS}, parsed once here (never handed on as text). */
    public Duration duration(Parameter p) {
        Duration d;
        try {
            d = DurationText.parse(value(p));
        } catch (RuntimeException e) {
            d = null;
        }
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(label(p.key()) + ": '" + values.get(p.key())
                    + "' is not a positive duration such as " + DurationText.FORMS);
        }
        return d;
    }

    /** One of an enum's constants, case-insensitively. */
    public <E extends Enum<E>> E choice(Parameter p, Class<E> type) {
        String v = value(p);
        try {
            return Enum.valueOf(type, v.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(label(p.key()) + ": '" + v + "' is not one of "
                    + Arrays.toString(type.getEnumConstants()));
        }
    }
}
