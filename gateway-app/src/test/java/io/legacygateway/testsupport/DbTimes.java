package io.legacygateway.testsupport;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Reads and writes times of the gateway's tables as instants, whatever the column type: with a time zone
 * ({@code timestamptz}) as the instant stored, without one (MariaDB {@code DATETIME}) as UTC, as the gateway writes
 * them.
 */
public final class DbTimes {

    private DbTimes() {
    }

    /** The first column of the first row as an instant, {@code null} when NULL or no row. */
    public static Instant instant(JdbcTemplate jdbc, String sql, Object... args) {
        return jdbc.query(sql, (ResultSet rs) -> rs.next() ? read(rs, 1) : null, args);
    }

    public static Instant read(ResultSet rs, int index) throws SQLException {
        Object v = rs.getObject(index);
        if (v == null) {
            return null;
        }
        boolean zoned = rs.getMetaData().getColumnTypeName(index).toLowerCase(Locale.ROOT).matches(".*(tz|time zone).*");
        if (v instanceof OffsetDateTime o) {
            return o.toInstant();
        }
        if (v instanceof LocalDateTime l) {
            return l.toInstant(ZoneOffset.UTC);
        }
        if (v instanceof Timestamp t) {
            return zoned ? t.toInstant() : t.toLocalDateTime().toInstant(ZoneOffset.UTC);
        }
        throw new IllegalStateException("not a time: " + v.getClass());
    }

    /** An instant as a bind value for a column of either kind (the database converts). */
    public static Object bind(JdbcTemplate jdbc, Instant instant) {
        String product = jdbc.execute((java.sql.Connection c) -> c.getMetaData().getDatabaseProductName())
                .toLowerCase(Locale.ROOT);
        return product.contains("mariadb") || product.contains("mysql")
                ? LocalDateTime.ofInstant(instant, ZoneOffset.UTC) : instant.atOffset(ZoneOffset.UTC);
    }
}
