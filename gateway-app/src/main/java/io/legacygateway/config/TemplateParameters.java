package io.legacygateway.config;

import jakarta.validation.ConstraintViolation;
import java.beans.PropertyEditorSupport;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.springframework.beans.PropertyEditorRegistry;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.core.convert.converter.GenericConverter;
import org.springframework.core.convert.support.GenericConversionService;
import org.springframework.util.unit.DataSize;

/**
 * The parameters of one route-template instance (an {@code outbox-relay} or {@code inbox-consumer} from YAML), bound by
 * Spring's {@link Binder} into a record whose components are declared with {@link TemplateParameter}, then validated
 * by its jakarta.validation constraints: the same binding and validation as the {@code gateway.*} properties, with
 * stricter conversions (an integer is digits, a boolean {@code true} or {@code false}, a duration one of
 * {@link DurationText#FORMS} and positive, an enum one of its constants in any case; Spring's own would take
 * {@code yes}, {@code 0x10} or {@code block-aggregate}). A parameter is named by its component exactly ({@code
 * batchSize}); the relaxed forms Spring accepts elsewhere ({@code batch-size}) are unknown parameters here.
 *
 * <p>Every failure is an {@link IllegalArgumentException} whose message starts with the parameter's label, for
 * example {@code outbox-relay 'orders' parameter 'batchSize': 0 is outside 1-1000}.
 */
public final class TemplateParameters {

    /**
     * One parameter as its record component declares it.
     *
     * @param defaultValue the {@code @DefaultValue} literal, {@code null} when there is none (required, or absent
     *                     means {@code null})
     */
    public record Definition(String key, String defaultValue, boolean required, String description,
                             String shownDefault) {

        /** The default column of the reference: the declared text, {@code (required)}, or the literal in backticks. */
        public String reference() {
            if (!shownDefault.isEmpty()) {
                return shownDefault;
            }
            if (required) {
                return "(required)";
            }
            return defaultValue == null || defaultValue.isEmpty() ? "" : "`" + defaultValue + "`";
        }
    }

    private static final GenericConversionService CONVERSIONS = conversions();
    private static final Validator VALIDATOR = Validation.buildDefaultValidatorFactory().getValidator();

    private TemplateParameters() {
    }

    /** The parameters {@code type} declares, in the order of its components. */
    public static List<Definition> definitions(Class<? extends Record> type) {
        RecordComponent[] components = type.getRecordComponents();
        Parameter[] parameters;
        try {
            // @DefaultValue targets constructor parameters only: it is there, not on the component
            parameters = type.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType)
                    .toArray(Class<?>[]::new)).getParameters();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(type + " has no canonical constructor", e);
        }
        List<Definition> definitions = new ArrayList<>();
        for (int i = 0; i < components.length; i++) {
            definitions.add(definition(components[i], parameters[i].getAnnotation(DefaultValue.class)));
        }
        return definitions;
    }

    /** The definition of {@code key}; fails when {@code type} declares no such parameter. */
    public static Definition definition(Class<? extends Record> type, String key) {
        return definitions(type).stream().filter(d -> d.key().equals(key)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(type.getSimpleName() + " has no parameter " + key));
    }

    private static Definition definition(RecordComponent c, DefaultValue value) {
        TemplateParameter doc = c.getAnnotation(TemplateParameter.class);
        if (doc == null) {
            throw new IllegalStateException(c + " is not declared with @TemplateParameter");
        }
        String defaultValue = value == null ? null : value.value().length == 0 ? "" : value.value()[0];
        if (doc.required() && defaultValue != null) {
            throw new IllegalStateException(c + " is required and has a default");
        }
        return new Definition(c.getName(), defaultValue, doc.required(), doc.value(), doc.shownDefault());
    }

    /** The parameters as Camel hands them over, as text ({@code null} values kept). */
    public static Map<String, String> text(Map<String, ?> raw) {
        Map<String, String> text = new LinkedHashMap<>();
        raw.forEach((k, v) -> text.put(k, v == null ? null : v.toString()));
        return text;
    }

    /**
     * The value of one parameter checked alone, before the others are bound: the name the other parameters' labels
     * start with.
     */
    public static String validated(Class<? extends Record> type, String key, Map<String, String> given,
                                   UnaryOperator<String> label) {
        Definition d = definition(type, key);
        String value = given(d, given, label);
        first(VALIDATOR.validateValue(type, key, value), List.of(d), label);
        return value;
    }

    /**
     * Binds {@code given} into {@code type} and validates it. Keys that {@code type} does not declare are ignored:
     * the caller refuses unknown ones first, or takes them as its own (column mappings, per-type effects).
     */
    public static <T extends Record> T bind(Class<T> type, Map<String, String> given, UnaryOperator<String> label) {
        List<Definition> definitions = definitions(type);
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, String> keyByName = new LinkedHashMap<>();
        for (Definition d : definitions) {
            keyByName.put(DataObjectPropertyName.toDashedForm(d.key()), d.key());
            String v = given(d, given, label);
            // blank is "not given" for an optional parameter without default; elsewhere the value is checked
            if (v != null && !(v.isEmpty() && d.defaultValue() == null)) {
                values.put(d.key(), v);
            }
        }
        Binder binder = new Binder(List.of(new MapConfigurationPropertySource(values)), null, CONVERSIONS,
                TemplateParameters::strictEditors);
        T bound;
        try {
            bound = binder.bindOrCreate("", Bindable.of(type));
        } catch (BindException e) {
            String name = e.getName().toString();
            throw new IllegalArgumentException(label.apply(keyByName.getOrDefault(name, name)) + ": " + reason(e), e);
        }
        first(VALIDATOR.validate(bound), definitions, label);
        return bound;
    }

    /** A positive duration in one of the {@link DurationText#FORMS} (for a parameter that also takes another word). */
    public static Duration duration(String label, String text) {
        try {
            return positive(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(label + ": " + e.getMessage(), e);
        }
    }

    private static String given(Definition d, Map<String, String> given, UnaryOperator<String> label) {
        String v = given.get(d.key());
        String stripped = v == null ? null : v.strip();
        if (d.required() && (stripped == null || stripped.isEmpty())) {
            throw new IllegalArgumentException(label.apply(d.key()) + " is required: " + d.description());
        }
        return stripped;
    }

    /** Throws for the violation of the first parameter in declaration order, so that the message is stable. */
    private static <T> void first(Set<ConstraintViolation<T>> violations, List<Definition> definitions,
                                  UnaryOperator<String> label) {
        List<String> order = definitions.stream().map(Definition::key).toList();
        violations.stream()
                .min(Comparator.comparingInt((ConstraintViolation<T> v) -> order.indexOf(key(v)))
                        .thenComparing(ConstraintViolation::getMessage))
                .ifPresent(v -> {
                    throw new IllegalArgumentException(label.apply(key(v)) + ": " + v.getMessage());
                });
    }

    /** The binder asks property editors first; Spring's {@code ZoneIdEditor} would give its own message. */
    private static void strictEditors(PropertyEditorRegistry registry) {
        registry.registerCustomEditor(ZoneId.class, new PropertyEditorSupport() {
            @Override
            public void setAsText(String text) {
                setValue(CONVERSIONS.convert(text, ZoneId.class));
            }
        });
    }

    private static String key(ConstraintViolation<?> violation) {
        return violation.getPropertyPath().toString();
    }

    /** The message of the innermost cause: what the converter said about the value. */
    private static String reason(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    /**
     * Spring's application conversions with the strict ones on top. It must be an {@link ApplicationConversionService}:
     * the binder falls back to the shared lenient one after a failed conversion otherwise, and {@code 0s} would bind.
     */
    private static GenericConversionService conversions() {
        ApplicationConversionService c = new ApplicationConversionService();
        c.addConverter(String.class, Integer.class, v -> {
            try {
                return Integer.valueOf(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + v + "' is not an integer");
            }
        });
        c.addConverter(String.class, Boolean.class, v -> switch (v.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("'" + v + "' is not true or false");
        });
        c.addConverter(String.class, Duration.class, TemplateParameters::positive);
        c.addConverter(String.class, DataSize.class, v -> {
            DataSize size;
            try {
                size = DataSize.parse(v);
            } catch (RuntimeException e) {
                size = null;
            }
            if (size == null || size.toBytes() <= 0) {
                throw new IllegalArgumentException("'" + v + "' is not a positive size such as 512KB, 1MB or 1048576"
                        + " (bytes)");
            }
            return size;
        });
        c.addConverter(String.class, ZoneId.class, v -> {
            try {
                return ZoneId.of(v);
            } catch (DateTimeException e) {
                throw new IllegalArgumentException("'" + v + "' is not a time zone such as UTC, +02:00 or"
                        + " Europe/Berlin");
            }
        });
        c.addConverter(new EnumConstant());
        return c;
    }

    private static Duration positive(String text) {
        Duration d;
        try {
            d = DurationText.parse(text);
        } catch (RuntimeException e) {
            d = null;
        }
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("'" + text + "' is not a positive duration such as "
                    + DurationText.FORMS);
        }
        return d;
    }

    /** One of an enum's constants, case-insensitively; nothing else (no dashes for underscores). */
    private static final class EnumConstant implements GenericConverter {

        @Override
        public Set<ConvertiblePair> getConvertibleTypes() {
            return Set.of(new ConvertiblePair(String.class, Enum.class));
        }

        @Override
        public Object convert(Object source, TypeDescriptor sourceType, TypeDescriptor targetType) {
            Object[] constants = targetType.getType().getEnumConstants();
            String v = source.toString();
            return Arrays.stream(constants).filter(e -> ((Enum<?>) e).name().equalsIgnoreCase(v)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("'" + v + "' is not one of "
                            + Arrays.stream(constants).map(Object::toString)
                            .collect(Collectors.joining(", ", "[", "]"))));
        }
    }
}
