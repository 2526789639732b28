package io.legacygateway.adapters.outbox.mapping;

import io.legacygateway.adapters.sql.SqlIdentifier;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableInspector.Column;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * One column of a payload built from the row's columns ({@link PayloadFormat#COLUMNS}): the JSON member
 * {@code "<column>": value}, the value converted by the column's type as the capture triggers write row images:
 * numbers as JSON numbers, booleans as {@code true}/{@code false}, text, UUIDs and fixed-length text (trailing blanks
 * removed) as strings, JSON columns ({@code json}, {@code jsonb}) as they are, binary as base64, a timestamp without
 * time zone as ISO-8601 local date-time ({@code 2007-02-15T22:25:46.996577}, as stored, no zone added), a timestamp
 * with time zone as an ISO-8601 instant in UTC ({@code ...Z}), a date as {@code 2007-02-15}; SQL NULL as {@code null}.
 *
 * @param column the column's name as stored, which is also the member's name
 * @param type   how its value is written
 */
public record PayloadField(String column, Type type) {

    /** How a column's value becomes JSON. */
    public enum Type { STRING, FIXED_STRING, JSON, NUMBER, BOOLEAN, BASE64, LOCAL_DATE_TIME, INSTANT, DATE }

    /**
     * The fields named by {@code payloadColumn} ({@code a, b, c}, or {@code *} for every column in table order).
     *
     * @throws IllegalArgumentException naming the parameter for an empty list, an unsafe name, a column the table
     *                                  lacks, a column named twice, or a type the gateway cannot convert
     */
    static List<PayloadField> resolve(TableInspector.Table table, String configured, UnaryOperator<String> label) {
        String parameter = label.apply(OutboxColumn.PAYLOAD.parameter());
        if (configured == null || configured.isBlank()) {
            throw new IllegalArgumentException(parameter + ": payloadFormat COLUMNS builds the payload from the columns"
                    + " this parameter lists (comma-separated, or * for all of them); it names none");
        }
        List<String> names = new ArrayList<>();
        if (configured.strip().equals("*")) {
            table.columns().values().forEach(c -> names.add(c.name()));
        } else {
            for (String part : configured.split(",")) {
                names.add(SqlIdentifier.require(parameter, part.strip()));
            }
        }
        LinkedHashSet<String> seen = new LinkedHashSet<>();
        List<PayloadField> fields = new ArrayList<>();
        for (String name : names) {
            Column column = table.column(name).orElseThrow(() -> new IllegalArgumentException(parameter + ": column '"
                    + name + "' does not exist in table '" + table.name() + "'"));
            if (!seen.add(column.name().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException(parameter + ": column '" + column.name() + "' is named twice");
            }
            fields.add(new PayloadField(column.name(), type(column, parameter)));
        }
        return List.copyOf(fields);
    }

    private static Type type(Column column, String parameter) {
        String name = column.typeName() == null ? "" : column.typeName().toLowerCase(Locale.ROOT);
        if (name.equals("json") || name.equals("jsonb")) {
            return Type.JSON;
        }
        if (column.jdbcType() == Types.BOOLEAN || column.jdbcType() == Types.BIT && column.size() <= 1) {
            return Type.BOOLEAN;
        }
        return ColumnKind.of(column).map(kind -> switch (kind) {
            case TEXT, UUID -> Type.STRING;
            case CHAR -> Type.FIXED_STRING;
            case INTEGER, DECIMAL -> Type.NUMBER;
            case BINARY -> Type.BASE64;
            case TIMESTAMP -> Type.LOCAL_DATE_TIME;
            case TIMESTAMP_TZ -> Type.INSTANT;
            case DATE -> Type.DATE;
        }).orElseThrow(() -> new IllegalArgumentException(parameter + ": column '" + column.name() + "' has type "
                + column.typeName() + ", which the gateway cannot write into a JSON payload (accepted: text, UUID,"
                + " numbers, booleans, JSON, binary, timestamps and dates)"));
    }

    /** Appends {@code "column": value} of the row's value at {@code index}. */
    void append(StringBuilder json, ResultSet rs, int index) throws SQLException {
        appendJsonString(json, column);
        json.append(':');
        String value = switch (type) {
            case STRING, JSON -> rs.getString(index);
            case FIXED_STRING -> {
                String s = rs.getString(index);
                yield s == null ? null : s.stripTrailing();
            }
            case NUMBER -> {
                BigDecimal d = rs.getBigDecimal(index);
                yield d == null ? null : d.toPlainString();
            }
            case BOOLEAN -> {
                boolean b = rs.getBoolean(index);
                yield rs.wasNull() ? null : String.valueOf(b);
            }
            case BASE64 -> {
                byte[] bytes = rs.getBytes(index);
                yield bytes == null ? null : Base64.getEncoder().encodeToString(bytes);
            }
            case LOCAL_DATE_TIME -> {
                LocalDateTime t = rs.getObject(index, LocalDateTime.class);
                yield t == null ? null : DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t);
            }
            case INSTANT -> {
                OffsetDateTime t = rs.getObject(index, OffsetDateTime.class);
                yield t == null ? null : DateTimeFormatter.ISO_INSTANT.format(t.toInstant());
            }
            case DATE -> {
                LocalDate d = rs.getObject(index, LocalDate.class);
                yield d == null ? null : d.toString();
            }
        };
        if (value == null) {
            json.append("null");
        } else if (type == Type.NUMBER || type == Type.BOOLEAN || type == Type.JSON) {
            json.append(value);
        } else {
            appendJsonString(json, value);
        }
    }

    /** Appends {@code s} as a JSON string: quote, backslash and control characters escaped. */
    public static void appendJsonString(StringBuilder json, String s) {
        json.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        json.append(String.format("\\u%04x", (int) ch));
                    } else {
                        json.append(ch);
                    }
                }
            }
        }
        json.append('"');
    }
}
