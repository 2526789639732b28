package io.legacygateway.adapters.capture;

import io.legacygateway.adapters.outbox.mapping.PayloadField;
import io.legacygateway.adapters.sql.TableName;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.h2.api.Trigger;

/**
 * The capture trigger of H2 (the embedded demo database), installed by {@link CaptureTriggers}: after each insert,
 * update or delete of a row it inserts one outbox row in the same transaction, with the same content as the
 * PostgreSQL and MariaDB triggers. Its settings (aggregate type, event-type prefix, outbox table and columns, key
 * columns) are read from the trigger's comment on first use.
 */
public final class H2CaptureTrigger implements Trigger {

    static final String PREFIX = "gateway-capture";

    private String schema;
    private String triggerName;
    private String tableName;
    private List<String> columns;
    private Map<String, String> settings;
    private int[] keyIndexes;
    private String insertSql;

    /** The comment that carries a trigger's settings (every part validated, so it is a safe literal). */
    static String settings(String aggregateType, String eventTypePrefix, TableName outbox, List<String> outboxColumns,
                           List<String> keyColumns) {
        return PREFIX + ";aggregateType=" + aggregateType + ";eventTypePrefix=" + eventTypePrefix + ";outbox=" + outbox
                + ";columns=" + String.join(",", outboxColumns) + ";key=" + String.join(",", keyColumns);
    }

    @Override
    public void init(Connection conn, String schemaName, String triggerName, String tableName, boolean before,
                     int type) throws SQLException {
        this.schema = schemaName;
        this.triggerName = triggerName;
        this.tableName = tableName;
        List<String> names = new ArrayList<>();
        try (ResultSet rs = conn.getMetaData().getColumns(null, schemaName, tableName, null)) {
            while (rs.next()) {
                names.add(rs.getString("COLUMN_NAME"));
            }
        }
        this.columns = List.copyOf(names);
    }

    private void configure(Connection conn) throws SQLException {
        String comment;
        try (PreparedStatement ps = conn.prepareStatement("SELECT REMARKS FROM INFORMATION_SCHEMA.TRIGGERS"
                + " WHERE TRIGGER_SCHEMA = ? AND TRIGGER_NAME = ?")) {
            ps.setString(1, schema);
            ps.setString(2, triggerName);
            try (ResultSet rs = ps.executeQuery()) {
                comment = rs.next() ? rs.getString(1) : null;
            }
        }
        if (comment == null || !comment.startsWith(PREFIX + ";")) {
            throw new SQLException("capture trigger " + triggerName + " has no settings in its comment; reinstall it"
                    + " with: java -jar gateway-app.jar triggers --table=" + tableName + " --install");
        }
        Map<String, String> s = new HashMap<>();
        for (String part : comment.substring(PREFIX.length() + 1).split(";")) {
            int eq = part.indexOf('=');
            s.put(part.substring(0, eq), part.substring(eq + 1));
        }
        String[] key = s.get("key").split(",");
        int[] indexes = new int[key.length];
        for (int i = 0; i < key.length; i++) {
            indexes[i] = columns.indexOf(key[i]);
        }
        TableName outbox = TableName.parse("outbox", s.get("outbox"));
        String target = (outbox.schema() == null ? "" : quote(outbox.schema()) + ".") + quote(outbox.table());
        List<String> targetColumns = List.of(s.get("columns").split(","));
        this.insertSql = "INSERT INTO " + target + " (" + String.join(", ", targetColumns.stream()
                .map(H2CaptureTrigger::quote).toList()) + ") VALUES (?, ?, ?, ?)";
        this.keyIndexes = indexes;
        this.settings = s;
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
        if (settings == null) {
            configure(conn);
        }
        String operation = oldRow == null ? "INSERT" : newRow == null ? "DELETE" : "UPDATE";
        Object[] keyRow = newRow != null ? newRow : oldRow;
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < keyIndexes.length; i++) {
            key.append(i == 0 ? "" : ":").append(keyRow[keyIndexes[i]]);
        }
        StringBuilder json = new StringBuilder("{\"operation\":\"").append(operation).append("\",\"table\":");
        PayloadField.appendJsonString(json, tableName);
        if (newRow != null) {
            image(json.append(",\"new\":"), newRow);
        }
        if (oldRow != null) {
            image(json.append(",\"old\":"), oldRow);
        }
        json.append('}');
        String suffix = switch (operation) {
            case "INSERT" -> CaptureTriggers.Operation.INSERT.eventSuffix();
            case "UPDATE" -> CaptureTriggers.Operation.UPDATE.eventSuffix();
            default -> CaptureTriggers.Operation.DELETE.eventSuffix();
        };
        try (PreparedStatement ps = conn.prepareStatement(insertSql)) {
            ps.setString(1, settings.get("aggregateType"));
            ps.setString(2, key.toString());
            ps.setString(3, settings.get("eventTypePrefix") + suffix);
            ps.setString(4, json.toString());
            ps.executeUpdate();
        }
    }

    private void image(StringBuilder json, Object[] row) {
        json.append('{');
        for (int i = 0; i < row.length && i < columns.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            PayloadField.appendJsonString(json, columns.get(i));
            json.append(':');
            value(json, row[i]);
        }
        json.append('}');
    }

    private static void value(StringBuilder json, Object v) {
        if (v == null) {
            json.append("null");
        } else if (v instanceof BigDecimal b) {
            json.append(b.toPlainString());
        } else if (v instanceof Number || v instanceof Boolean) {
            json.append(v);
        } else if (v instanceof byte[] bytes) {
            PayloadField.appendJsonString(json, Base64.getEncoder().encodeToString(bytes));
        } else {
            PayloadField.appendJsonString(json, v.toString());
        }
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    @Override
    public void close() {
    }

    @Override
    public void remove() {
    }
}
