package io.legacygateway.adapters.outbox.mapping;

import static java.util.UUID.fromString;

import io.legacygateway.adapters.sql.TableInspector;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * What the gateway can do with a column, decided once at startup from the JDBC metadata (type code and type name):
 * how a value is read, compared and bound back. A column whose type has no kind cannot be mapped, and the mapping
 * fails at startup naming the parameter.
 *
 * <p>Timestamps without a time zone ({@link #TIMESTAMP}, {@link #DATE}) are read and written in a configured zone
 * (parameter {@code naiveTimestampZone}, UTC by default): the database does not say which zone they mean.
 */
public enum ColumnKind {
    /** Variable-length text, CLOB, JSON ({@code json}, {@code jsonb}, MariaDB's JSON alias of LONGTEXT). */
    TEXT("text"),
    /** Fixed-length {@code CHAR(n)}: read with the padding blanks removed. */
    CHAR("fixed-length text"),
    /** {@code uuid} (PostgreSQL, H2, MariaDB 10.7+): read in its canonical text form. */
    UUID("UUID"),
    /** Integer types: read as text for values, as a number for ordering. */
    INTEGER("integer"),
    /** {@code NUMERIC}/{@code DECIMAL}. */
    DECIMAL("decimal"),
    /** {@code bytea}, BLOB, (VAR)BINARY: a payload is decoded as UTF-8; a row that is not valid UTF-8 is rejected. */
    BINARY("binary"),
    /** Timestamp without time zone ({@code timestamp}, MariaDB {@code DATETIME}/{@code TIMESTAMP}). */
    TIMESTAMP("timestamp without time zone"),
    /** Timestamp with time zone or offset ({@code timestamptz}, {@code TIMESTAMP WITH TIME ZONE}). */
    TIMESTAMP_TZ("timestamp with time zone"),
    /** {@code DATE}: midnight in the configured zone. */
    DATE("date");

    private final String description;

    ColumnKind(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** The kind of a stored column, or empty when the gateway cannot convert its type. */
    public static Optional<ColumnKind> of(TableInspector.Column column) {
        String name = column.typeName() == null ? "" : column.typeName().toLowerCase(Locale.ROOT);
        if (name.equals("uuid")) {
            return Optional.of(UUID); // H2 reports UUID as BINARY, PostgreSQL and MariaDB as OTHER
        }
        if (name.equals("json") || name.equals("jsonb")) {
            return Optional.of(TEXT);
        }
        if (name.equals("timestamptz") || name.contains("with time zone") || name.equals("datetimeoffset")) {
            return Optional.of(TIMESTAMP_TZ);
        }
        return switch (column.jdbcType()) {
            case Types.VARCHAR, Types.NVARCHAR, Types.LONGVARCHAR, Types.LONGNVARCHAR, Types.CLOB, Types.NCLOB ->
                    Optional.of(TEXT);
            case Types.CHAR, Types.NCHAR -> Optional.of(CHAR);
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> Optional.of(INTEGER);
            case Types.NUMERIC, Types.DECIMAL -> Optional.of(DECIMAL);
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> Optional.of(BINARY);
            case Types.TIMESTAMP -> Optional.of(TIMESTAMP);
            case Types.TIMESTAMP_WITH_TIMEZONE -> Optional.of(TIMESTAMP_TZ);
            case Types.DATE -> Optional.of(DATE);
            default -> Optional.empty();
        };
    }

    /** Thrown for a value that cannot be converted; the row is rejected with this message, never dropped. */
    public static final class UnconvertibleValue extends Exception {
        public UnconvertibleValue(String message) {
            super(message);
        }
    }

    /** Reads a value as text ({@code null} stays {@code null}). */
    public String readText(ResultSet rs, int index) throws SQLException, UnconvertibleValue {
        switch (this) {
            case BINARY -> {
                byte[] bytes = rs.getBytes(index);
                if (bytes == null) {
                    return null;
                }
                try {
                    return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
                } catch (CharacterCodingException e) {
                    throw new UnconvertibleValue("not valid UTF-8 (" + bytes.length + " bytes)");
                }
            }
            case CHAR -> {
                String s = rs.getString(index);
                return s == null ? null : s.stripTrailing();
            }
            case DECIMAL -> {
                BigDecimal d = rs.getBigDecimal(index);
                return d == null ? null : d.toPlainString();
            }
            default -> {
                return rs.getString(index);
            }
        }
    }

    /** Reads a time column as an instant; naive values are taken in {@code zone}. */
    public Instant readInstant(ResultSet rs, int index, ZoneId zone) throws SQLException {
        return switch (this) {
            case TIMESTAMP_TZ -> {
                OffsetDateTime t = rs.getObject(index, OffsetDateTime.class);
                yield t == null ? null : t.toInstant();
            }
            case TIMESTAMP -> {
                LocalDateTime t = rs.getObject(index, LocalDateTime.class);
                yield t == null ? null : t.atZone(zone).toInstant();
            }
            case DATE -> {
                LocalDate d = rs.getObject(index, LocalDate.class);
                yield d == null ? null : d.atStartOfDay(zone).toInstant();
            }
            default -> throw new IllegalStateException(this + " is not a time");
        };
    }

    /** The value to bind for writing or comparing an instant in a column of this kind. */
    public Object bindInstant(Instant instant, ZoneId zone) {
        return switch (this) {
            case TIMESTAMP_TZ -> instant.atOffset(ZoneOffset.UTC);
            case TIMESTAMP -> LocalDateTime.ofInstant(instant, zone);
            case DATE -> LocalDate.ofInstant(instant, zone);
            default -> throw new IllegalStateException(this + " is not a time");
        };
    }

    /**
     * Reads a value for ordering and cursors: a {@link Comparable} of one Java type per kind (Long or BigInteger,
     * BigDecimal, String, UUID, LocalDateTime, OffsetDateTime, LocalDate).
     */
    public Object readComparable(ResultSet rs, int index) throws SQLException {
        Object v = switch (this) {
            case INTEGER -> {
                // read per claimed row: an INT or BIGINT column's own Integer or Long, without a detour through text
                Object o = rs.getObject(index);
                if (o instanceof Long || o instanceof Integer || o instanceof Short) {
                    yield ((Number) o).longValue();
                }
                BigDecimal d = rs.getBigDecimal(index);
                yield d == null ? null : integer(d.toBigIntegerExact().toString());
            }
            case DECIMAL -> rs.getBigDecimal(index);
            case TEXT -> rs.getString(index);
            case CHAR -> {
                String s = rs.getString(index);
                yield s == null ? null : s.stripTrailing();
            }
            case UUID -> {
                String s = rs.getString(index);
                // UUID.fromString, imported statically: in this enum the name UUID is the constant
                yield s == null ? null : fromString(s);
            }
            case TIMESTAMP -> rs.getObject(index, LocalDateTime.class);
            case TIMESTAMP_TZ -> rs.getObject(index, OffsetDateTime.class);
            case DATE -> rs.getObject(index, LocalDate.class);
            case BINARY -> throw new IllegalStateException("binary values are not ordered");
        };
        return v;
    }

    /** Text form of a {@link #readComparable} value, kept in the gateway's position table. */
    public String encode(Object comparable) {
        return comparable == null ? null : comparable.toString();
    }

    /** The {@link #readComparable} value back from its {@link #encode text form}, ready to bind. */
    public Object decode(String text) {
        if (text == null) {
            return null;
        }
        return switch (this) {
            case INTEGER -> integer(text);
            case DECIMAL -> new BigDecimal(text);
            case TEXT, CHAR -> text;
            case UUID -> fromString(text);
            case TIMESTAMP -> LocalDateTime.parse(text);
            case TIMESTAMP_TZ -> OffsetDateTime.parse(text);
            case DATE -> LocalDate.parse(text);
            case BINARY -> throw new IllegalStateException("binary values are not ordered");
        };
    }

    /** Compares two {@link #readComparable} values of this kind. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public int compare(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y); // the usual order column, compared for every claimed row
        }
        if (a instanceof Number x && b instanceof Number y) {
            return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString()));
        }
        if (a instanceof OffsetDateTime x && b instanceof OffsetDateTime y) {
            return x.toInstant().compareTo(y.toInstant());
        }
        return ((Comparable) a).compareTo(b);
    }

    private static Object integer(String text) {
        BigInteger i = new BigInteger(text);
        return i.bitLength() < 64 ? (Object) i.longValueExact() : i;
    }

    /** UUIDs bound as {@link UUID} where the driver maps them (PostgreSQL, H2), as text elsewhere. */
    static Object bindable(Object comparable, boolean uuidAsText) {
        return uuidAsText && comparable instanceof UUID u ? u.toString() : comparable;
    }
}
