package io.legacygateway.adapters.outbox.mapping;

import io.legacygateway.adapters.sql.SqlIdentifier;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableInspector.Column;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Types;
import java.time.ZoneId;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * How one outbox table maps onto the relay's logical columns, resolved against the live table: which stored column
 * holds each value and of which {@link ColumnKind}, which values are given by configuration instead
 * ({@link ValueTemplate}), and how rows are marked.
 *
 * @param table          the table as stored
 * @param markMode       how published rows are recorded
 * @param columns        mapped logical columns to their stored names; absent or unused columns have no entry
 * @param kinds          the kind of each mapped column
 * @param values         values given by configuration instead of a column
 * @param pendingValue   status value of a row waiting to be published ({@link MarkMode#STATUS})
 * @param publishedValue status value written once the broker accepted the event
 * @param failedValue    status value of a row parked with its reason
 * @param payloadFormat  how the payload becomes CloudEvents data
 * @param naiveZone      zone of timestamps stored without one
 * @param payloadFields  with {@link PayloadFormat#COLUMNS}: the columns whose values make the payload (then
 *                       {@link OutboxColumn#PAYLOAD} is not mapped); empty otherwise
 */
public record OutboxMapping(TableInspector.Table table, MarkMode markMode, Map<OutboxColumn, String> columns,
                            Map<OutboxColumn, ColumnKind> kinds, Map<OutboxColumn, ValueTemplate> values,
                            String pendingValue, String publishedValue, String failedValue,
                            PayloadFormat payloadFormat, ZoneId naiveZone, List<PayloadField> payloadFields) {

    /** A mapping whose payload is one column. */
    public OutboxMapping(TableInspector.Table table, MarkMode markMode, Map<OutboxColumn, String> columns,
                         Map<OutboxColumn, ColumnKind> kinds, Map<OutboxColumn, ValueTemplate> values,
                         String pendingValue, String publishedValue, String failedValue,
                         PayloadFormat payloadFormat, ZoneId naiveZone) {
        this(table, markMode, columns, kinds, values, pendingValue, publishedValue, failedValue, payloadFormat,
                naiveZone, List.of());
    }

    /** Placeholders each configurable value may use: the row key, the table name, and values resolved before it. */
    static final Map<OutboxColumn, Set<String>> PLACEHOLDERS = Map.of(
            OutboxColumn.AGGREGATE_TYPE, Set.of("key", "table", "aggregateId"),
            OutboxColumn.EVENT_TYPE, Set.of("key", "table", "aggregateId", "aggregateType"),
            OutboxColumn.EVENT_VERSION, Set.of(),
            OutboxColumn.EVENT_ID, Set.of("key", "table", "aggregateId", "aggregateType", "eventType"));

    public OutboxMapping {
        columns = Collections.unmodifiableMap(new EnumMap<>(columns));
        kinds = Collections.unmodifiableMap(kinds.isEmpty() ? new EnumMap<>(OutboxColumn.class) : new EnumMap<>(kinds));
        values = Collections.unmodifiableMap(values.isEmpty() ? new EnumMap<>(OutboxColumn.class) : new EnumMap<>(values));
        payloadFields = List.copyOf(payloadFields);
    }

    public boolean has(OutboxColumn column) {
        return columns.containsKey(column);
    }

    /** The stored name of a mapped column. */
    public String column(OutboxColumn column) {
        String name = columns.get(column);
        if (name == null) {
            throw new IllegalStateException(column + " is not mapped");
        }
        return name;
    }

    public ColumnKind kind(OutboxColumn column) {
        ColumnKind kind = kinds.get(column);
        if (kind == null) {
            throw new IllegalStateException(column + " is not mapped");
        }
        return kind;
    }

    /** A status value as bound to the status column: a number for an integer column. */
    public Object statusBind(String value) {
        return kinds.get(OutboxColumn.STATUS) == ColumnKind.INTEGER ? Long.parseLong(value) : value;
    }

    /** The parameters of one mapping as the user gave them. */
    public record Settings(MarkMode markMode, Map<String, String> configured, String pendingValue,
                           String publishedValue, String failedValue, PayloadFormat payloadFormat, ZoneId naiveZone) {
    }

    /**
     * Resolves configured column names and values against the table.
     *
     * @param label names a parameter in error messages, for example {@code outbox-relay 'orders' parameter 'x'}
     * @throws IllegalArgumentException naming the parameter of the first column that is unsafe, missing, required,
     *                                  not used in the mark mode, or of a type the gateway cannot convert
     */
    public static OutboxMapping resolve(TableInspector.Table table, Settings s, UnaryOperator<String> label) {
        Map<OutboxColumn, String> resolved = new EnumMap<>(OutboxColumn.class);
        Map<OutboxColumn, ColumnKind> kinds = new EnumMap<>(OutboxColumn.class);
        Map<OutboxColumn, ValueTemplate> values = new EnumMap<>(OutboxColumn.class);
        List<PayloadField> payloadFields = List.of();
        for (OutboxColumn c : OutboxColumn.values()) {
            String value = s.configured().get(c.parameter());
            if (c == OutboxColumn.PAYLOAD && s.payloadFormat() == PayloadFormat.COLUMNS) {
                // no payload column: the payload is built from the columns listed
                payloadFields = PayloadField.resolve(table, value, label);
                continue;
            }
            boolean explicit = value != null && !value.isBlank();
            boolean absent = explicit && OutboxColumn.ABSENT.equalsIgnoreCase(value.strip());
            boolean required = c.required() || s.markMode().requires(c);
            String given = c.valueParameter() == null ? null : s.configured().get(c.valueParameter());
            if (given != null && !given.isBlank()) {
                if (explicit && !absent) {
                    throw new IllegalArgumentException(label.apply(c.valueParameter()) + ": set either '"
                            + c.valueParameter() + "' (a value) or '" + c.parameter() + "' (a column), not both");
                }
                values.put(c, template(c, given, label));
                continue;
            }
            if (!s.markMode().uses(c)) {
                if (explicit && !absent) {
                    throw new IllegalArgumentException(label.apply(c.parameter()) + ": not used in markMode "
                            + s.markMode() + " (remove it)");
                }
                continue;
            }
            String name = explicit ? value.strip() : c.defaultName();
            if (absent) {
                if (required) {
                    throw new IllegalArgumentException(label.apply(c.parameter()) + ": the " + c.description()
                            + " column is required" + (c.required() ? "" : " in markMode " + s.markMode())
                            + " and cannot be '" + OutboxColumn.ABSENT + "'");
                }
                continue;
            }
            SqlIdentifier.require(label.apply(c.parameter()), name);
            Optional<Column> column = table.column(name);
            if (column.isEmpty()) {
                if (explicit || required) {
                    throw new IllegalArgumentException(label.apply(c.parameter()) + ": column '" + name
                            + "' does not exist in table '" + table.name() + "'" + hint(c, s.markMode()));
                }
                continue;
            }
            resolved.put(c, column.get().name());
            kinds.put(c, kind(c, column.get(), label));
        }
        if (kinds.get(OutboxColumn.STATUS) == ColumnKind.INTEGER) {
            requireInteger(label, "pendingStatus", s.pendingValue());
            requireInteger(label, "publishedStatus", s.publishedValue());
            requireInteger(label, "failedStatus", s.failedValue());
        }
        OutboxMapping mapping = new OutboxMapping(table, s.markMode(), resolved, kinds, values, s.pendingValue(),
                s.publishedValue(), s.failedValue(), s.payloadFormat(), s.naiveZone(), payloadFields);
        if (mapping.has(OutboxColumn.STATUS)) {
            mapping.requireDistinctStatuses(label);
        }
        return mapping;
    }

    /** The kind of a configured column, when the gateway can convert it to what the column holds. */
    private static ColumnKind kind(OutboxColumn c, Column column, UnaryOperator<String> label) {
        return ColumnKind.of(column).filter(c.kinds()::contains).orElseThrow(() -> new IllegalArgumentException(
                label.apply(c.parameter()) + ": column '" + column.name() + "' has type " + column.typeName()
                + ", which the gateway cannot convert to the " + c.description() + " (accepted: "
                + c.kinds().stream().map(ColumnKind::description).collect(Collectors.joining(", ")) + ")"));
    }

    /** Each status value fits the status column and can be told apart from the others as the column compares them. */
    private void requireDistinctStatuses(UnaryOperator<String> label) {
        Map<String, String> statuses = new LinkedHashMap<>();
        statuses.put("pendingStatus", pendingValue);
        statuses.put("publishedStatus", publishedValue);
        statuses.put("failedStatus", failedValue);
        Map<Object, String> seen = new HashMap<>();
        statuses.forEach((parameter, value) -> {
            requireFits(OutboxColumn.STATUS, parameter, value, "'" + value + "'", label);
            String earlier = seen.putIfAbsent(comparable(value), parameter);
            if (earlier != null) {
                throw new IllegalArgumentException(label.apply(parameter) + ": '" + value + "' cannot be told"
                        + " apart from " + earlier + " '" + statuses.get(earlier) + "' (the status values must"
                        + " differ, also ignoring case and trailing blanks as a column's collation may)");
            }
        });
    }

    /** A status value as the column compares it, at worst: numbers by value, text ignoring case and trailing blanks. */
    private Object comparable(String status) {
        Object bound = statusBind(status);
        return bound instanceof String text ? text.stripTrailing().toLowerCase(Locale.ROOT) : bound;
    }

    /**
     * Fails unless the column can store {@code value} as the relay writes it: no longer than a text column, within the
     * range of an integer column, no more integer digits than a decimal column has. A value that does not fit would
     * make the mark of every row fail (or, where the database truncates silently, write another value), so it is
     * refused at startup. Sizes the driver does not report are not checked.
     *
     * @param parameter names the value in the message (the parameter that gives it, or the column parameter)
     * @param subject   how the message names the value, for example {@code 'FAILED'}
     * @throws IllegalArgumentException naming the parameter, the value, the column's type and the table
     */
    public void requireFits(OutboxColumn column, String parameter, String value, String subject,
                            UnaryOperator<String> label) {
        Column stored = table.column(column(column)).orElseThrow();
        String limit = misfit(stored, kind(column), value);
        if (limit != null) {
            throw new IllegalArgumentException(label.apply(parameter) + ": " + subject + " does not fit column '"
                    + stored.name() + "' " + typeText(stored) + " of table '" + table.name() + "' (" + limit + ")");
        }
    }

    /** What the column takes, when {@code value} exceeds it; {@code null} when it fits or the size is unknown. */
    private static String misfit(Column stored, ColumnKind kind, String value) {
        switch (kind) {
            case TEXT, CHAR -> {
                int length = value.codePointCount(0, value.length());
                return stored.size() > 0 && length > stored.size()
                        ? "at most " + stored.size() + " character" + (stored.size() == 1 ? "" : "s") : null;
            }
            case INTEGER -> {
                BigInteger v = new BigInteger(value.strip());
                BigInteger[] range = integerRange(stored);
                return v.compareTo(range[0]) < 0 || v.compareTo(range[1]) > 0
                        ? range[0] + " to " + range[1] : null;
            }
            case DECIMAL -> {
                int digits = new BigDecimal(value.strip()).toBigInteger().abs().toString().length();
                int room = stored.size() - stored.scale();
                return stored.size() > 0 && digits > room ? "at most " + room + " integer digits" : null;
            }
            default -> {
                return null;
            }
        }
    }

    private static BigInteger[] integerRange(Column stored) {
        String type = stored.typeName() == null ? "" : stored.typeName().toLowerCase(Locale.ROOT);
        int bits = switch (stored.jdbcType()) {
            case Types.TINYINT -> 8;
            case Types.SMALLINT -> 16;
            case Types.INTEGER -> type.startsWith("mediumint") ? 24 : 32;
            default -> 64;
        };
        if (type.contains("unsigned")) {
            return new BigInteger[] {BigInteger.ZERO, BigInteger.TWO.pow(bits).subtract(BigInteger.ONE)};
        }
        BigInteger half = BigInteger.TWO.pow(bits - 1);
        return new BigInteger[] {half.negate(), half.subtract(BigInteger.ONE)};
    }

    /** The column's type for messages: {@code char(1)}, {@code varchar(16)}, {@code int2}, {@code numeric(3,0)}. */
    private static String typeText(Column stored) {
        String type = stored.jdbcType() == Types.CHAR || stored.jdbcType() == Types.NCHAR ? "char"
                : String.valueOf(stored.typeName()).toLowerCase(Locale.ROOT);
        return switch (stored.jdbcType()) {
            case Types.NUMERIC, Types.DECIMAL -> type + "(" + stored.size() + "," + stored.scale() + ")";
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> type;
            default -> stored.size() > 0 ? type + "(" + stored.size() + ")" : type;
        };
    }

    private static ValueTemplate template(OutboxColumn c, String given, UnaryOperator<String> label) {
        ValueTemplate t = ValueTemplate.parse(label.apply(c.valueParameter()), given.strip(), PLACEHOLDERS.get(c));
        if (c == OutboxColumn.EVENT_VERSION) {
            try {
                if (Integer.parseInt(t.toString()) < 1) {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(label.apply(c.valueParameter()) + ": '" + given
                        + "' is not an integer >= 1");
            }
        }
        return t;
    }

    private static String hint(OutboxColumn c, MarkMode mode) {
        if (c.valueParameter() != null) {
            return " (or give the value itself with parameter '" + c.valueParameter() + "')";
        }
        if (!c.required() && !mode.requires(c)) {
            return " (set it to '" + OutboxColumn.ABSENT + "' if the table has no such column)";
        }
        return "";
    }

    private static void requireInteger(UnaryOperator<String> label, String parameter, String value) {
        try {
            Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(label.apply(parameter) + ": '" + value
                    + "' must be an integer because the status column is an integer column");
        }
    }
}
