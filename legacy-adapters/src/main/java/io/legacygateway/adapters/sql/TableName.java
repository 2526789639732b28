package io.legacygateway.adapters.sql;

/**
 * A possibly schema-qualified table name from configuration, such as {@code outbox} or {@code sales.outbox}. Both
 * parts are validated as {@link SqlIdentifier}s.
 *
 * @param schema the schema (PostgreSQL, H2) or database (MariaDB) name, or {@code null} for the connection default
 * @param table  the table name
 */
public record TableName(String schema, String table) {

    public TableName {
        if (schema != null) {
            SqlIdentifier.require("schema", schema);
        }
        SqlIdentifier.require("table", table);
    }

    /**
     * Parses {@code table} or {@code schema.table}.
     *
     * @param property the configuration key, named in the error
     */
    public static TableName parse(String property, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(property + ": a table name is required");
        }
        int dot = value.indexOf('.');
        if (dot < 0) {
            return new TableName(null, SqlIdentifier.require(property, value));
        }
        return new TableName(SqlIdentifier.require(property, value.substring(0, dot)),
                SqlIdentifier.require(property, value.substring(dot + 1)));
    }

    @Override
    public String toString() {
        return schema == null ? table : schema + "." + table;
    }
}
