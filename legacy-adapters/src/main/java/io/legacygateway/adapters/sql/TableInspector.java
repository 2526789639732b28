package io.legacygateway.adapters.sql;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * Finds a configured table and its columns in the JDBC metadata, so that a mapping naming something that does not
 * exist fails at startup, and so that statements use the names exactly as the database stores them (configuration is
 * matched case-insensitively: {@code outbox} finds H2's {@code OUTBOX}).
 */
public final class TableInspector {

    /** What may be configured as a table; PostgreSQL's JDBC driver reports a partitioned table apart. */
    private static final String[] TABLE_TYPES = {"TABLE", "VIEW", "BASE TABLE", "PARTITIONED TABLE"};

    private TableInspector() {
    }

    /**
     * A column as stored: its exact name, JDBC type ({@link java.sql.Types}) and type name, its default expression as
     * the driver reports it ({@code null} when none), and its size as {@code COLUMN_SIZE} and {@code DECIMAL_DIGITS}
     * report it: the length of a text column, the precision and scale of a numeric one; 0 when the driver does not say.
     */
    public record Column(String name, int jdbcType, String typeName, boolean nullable, String defaultValue, int size,
                         int scale) {

        /** A column whose size is not known. */
        public Column(String name, int jdbcType, String typeName, boolean nullable, String defaultValue) {
            this(name, jdbcType, typeName, nullable, defaultValue, 0, 0);
        }
    }

    /**
     * A table as stored, with its columns keyed by lowercase name in table order, and its primary key columns (empty
     * when it has none).
     */
    public record Table(TableName name, Map<String, Column> columns, List<String> primaryKey) {

        /** The column whose name equals {@code configured} ignoring case. */
        public Optional<Column> column(String configured) {
            return Optional.ofNullable(columns.get(configured.toLowerCase(Locale.ROOT)));
        }
    }

    /**
     * @param property the configuration key that named the table, used in the error
     * @throws IllegalArgumentException naming the property when the table does not exist or is ambiguous
     */
    public static Table inspect(DataSource dataSource, Dialect dialect, TableName configured, String property) {
        try (Connection c = dataSource.getConnection()) {
            DatabaseMetaData md = c.getMetaData();
            boolean catalogIsSchema = dialect == Dialect.MARIADB;
            String scope = configured.schema() != null ? configured.schema()
                    : catalogIsSchema ? c.getCatalog() : c.getSchema();
            List<String[]> found = new ArrayList<>();
            String escape = md.getSearchStringEscape();
            String pattern = configured.table().replace("_", escape + "_");
            for (String candidate : List.of(pattern, pattern.toUpperCase(Locale.ROOT), pattern.toLowerCase(Locale.ROOT))) {
                try (ResultSet rs = catalogIsSchema
                        ? md.getTables(scope, null, candidate, TABLE_TYPES)
                        : md.getTables(null, scope == null ? null : exactCase(md, scope), candidate, TABLE_TYPES)) {
                    while (rs.next()) {
                        String schema = catalogIsSchema ? rs.getString("TABLE_CAT") : rs.getString("TABLE_SCHEM");
                        String table = rs.getString("TABLE_NAME");
                        if (table.equalsIgnoreCase(configured.table())
                                && (scope == null || schema == null || schema.equalsIgnoreCase(scope))
                                && found.stream().noneMatch(f -> f[1].equals(table))) {
                            found.add(new String[] {schema, table});
                        }
                    }
                }
                if (!found.isEmpty()) {
                    break;
                }
            }
            if (found.isEmpty()) {
                throw new IllegalArgumentException(property + ": table '" + configured + "' does not exist"
                        + (scope == null ? "" : " in '" + scope + "'") + invisible(c, dialect));
            }
            if (found.size() > 1) {
                throw new IllegalArgumentException(property + ": table name '" + configured
                        + "' is ambiguous (differs only by case); quote-exact names are not supported");
            }
            String schema = configured.schema() == null ? null : found.get(0)[0];
            String table = found.get(0)[1];
            String stored = found.get(0)[0];
            return new Table(new TableName(schema, table), columns(md, catalogIsSchema, stored, table),
                    primaryKey(md, catalogIsSchema, stored, table));
        } catch (SQLException e) {
            throw new IllegalStateException(property + ": cannot read the metadata of table '" + configured + "': "
                    + e.getMessage(), e);
        }
    }

    /**
     * Where the metadata lists only the tables on which the user holds a privilege (MariaDB), a table that is not
     * found may exist: the rest of the message says so, naming the user and the grant; empty elsewhere.
     */
    private static String invisible(Connection c, Dialect dialect) {
        if (!dialect.hasCaptureSql("capture.grants.held")) {
            return "";
        }
        String user;
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(dialect.captureSql("capture.currentAccount", Map.of()))) {
            user = rs.next() ? rs.getString(1) : "the connection's user";
        } catch (SQLException e) {
            user = "the connection's user";
        }
        if (user.indexOf('@') > 0 && !user.startsWith("'")) {
            user = "'" + user.substring(0, user.lastIndexOf('@')) + "'@'" + user.substring(user.lastIndexOf('@') + 1)
                    + "'";
        }
        return " or is not visible to user " + user + ", which holds no privilege on it (MariaDB lists to a user only"
                + " the tables it holds a privilege on): grant it SELECT on the table, and what else its use needs"
                + " (docs/connect-a-database.md, grants)";
    }

    /** The table's columns, keyed by lowercase name, in table order. */
    private static Map<String, Column> columns(DatabaseMetaData md, boolean catalogIsSchema, String stored,
                                               String table) throws SQLException {
        Map<String, Column> columns = new LinkedHashMap<>();
        String pattern = table.replace("_", md.getSearchStringEscape() + "_");
        try (ResultSet rs = catalogIsSchema ? md.getColumns(stored, null, pattern, "%")
                : md.getColumns(null, stored, pattern, "%")) {
            while (rs.next()) {
                if (!rs.getString("TABLE_NAME").equals(table)) {
                    continue;
                }
                String name = rs.getString("COLUMN_NAME");
                columns.put(name.toLowerCase(Locale.ROOT), new Column(name, rs.getInt("DATA_TYPE"),
                        rs.getString("TYPE_NAME"), rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls,
                        rs.getString("COLUMN_DEF"), size(rs, "COLUMN_SIZE"), size(rs, "DECIMAL_DIGITS")));
            }
        }
        return Collections.unmodifiableMap(columns);
    }

    /** The primary key's columns in key order; empty when the table has none. */
    private static List<String> primaryKey(DatabaseMetaData md, boolean catalogIsSchema, String stored, String table)
            throws SQLException {
        Map<Short, String> key = new TreeMap<>();
        try (ResultSet rs = catalogIsSchema ? md.getPrimaryKeys(stored, null, table)
                : md.getPrimaryKeys(null, stored, table)) {
            while (rs.next()) {
                key.put(rs.getShort("KEY_SEQ"), rs.getString("COLUMN_NAME"));
            }
        }
        return List.copyOf(key.values());
    }

    /** A size column of the metadata; unlimited types may report more than an int holds (LONGTEXT: 2^32 - 1). */
    private static int size(ResultSet rs, String column) throws SQLException {
        long size = rs.getLong(column);
        return rs.wasNull() || size < 0 ? 0 : (int) Math.min(size, Integer.MAX_VALUE);
    }

    private static String exactCase(DatabaseMetaData md, String schema) throws SQLException {
        if (md.storesUpperCaseIdentifiers()) {
            return schema.toUpperCase(Locale.ROOT);
        }
        if (md.storesLowerCaseIdentifiers()) {
            return schema.toLowerCase(Locale.ROOT);
        }
        return schema;
    }
}
