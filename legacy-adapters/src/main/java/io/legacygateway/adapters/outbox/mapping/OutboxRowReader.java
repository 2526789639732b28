package io.legacygateway.adapters.outbox.mapping;

import io.legacygateway.adapters.sql.Dialect;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@link OutboxRow}s of one mapping: the select list (mapped read-side columns, then the key as text) and the
 * conversion of each value by its {@link ColumnKind}. A value that cannot be converted becomes the row's
 * {@link OutboxRow#problem() problem}, never an exception, so one bad row does not stop the others.
 */
final class OutboxRowReader {

    private final OutboxMapping mapping;
    private final Map<OutboxColumn, Integer> position = new EnumMap<>(OutboxColumn.class);
    /** With {@link PayloadFormat#COLUMNS}: the select-list index of each payload field, in field order. */
    private final List<Integer> payloadPositions = new ArrayList<>();
    private final String selectList;
    private final int keyTextIndex;

    /**
     * @param qualifier prefix of the key in the key-as-text expression (the quoted table, or an alias), so that it
     *                  cannot be mistaken for a column of a subquery's table
     */
    OutboxRowReader(Dialect dialect, OutboxMapping mapping, String qualifier) {
        this.mapping = mapping;
        List<String> names = new ArrayList<>();
        for (OutboxColumn c : mapping.columns().keySet()) {
            if (!MarkMode.WRITE_SIDE.contains(c) || c == OutboxColumn.RETRY_COUNT) {
                // a stored column mapped twice (key and order are both seq by default) is selected once
                int at = names.indexOf(mapping.column(c));
                if (at < 0) {
                    names.add(mapping.column(c));
                    at = names.size() - 1;
                }
                position.put(c, at + 1);
            }
        }
        for (PayloadField f : mapping.payloadFields()) {
            int at = names.indexOf(f.column());
            if (at < 0) {
                names.add(f.column());
                at = names.size() - 1;
            }
            payloadPositions.add(at + 1);
        }
        List<String> columns = new ArrayList<>(names.stream().map(dialect::quote).toList());
        columns.add(keyText(dialect, mapping, qualifier) + " AS gw_key_text");
        this.selectList = String.join(", ", columns);
        this.keyTextIndex = columns.size();
    }

    /** The key rendered as text by the database, the same expression claims compare with the rejection table. */
    static String keyText(Dialect dialect, OutboxMapping mapping, String qualifier) {
        return dialect.sql("keyText", Map.of("column", qualifier + "." + dialect.quote(mapping.column(OutboxColumn.KEY))));
    }

    /** The quoted mapped columns, then the key as text; {@link #read} expects exactly these. */
    String selectList() {
        return selectList;
    }

    /** How many columns {@link #selectList()} has; columns a caller appends follow at the next indexes. */
    int columnCount() {
        return keyTextIndex;
    }

    OutboxRow read(ResultSet rs) throws SQLException {
        List<String> problems = new ArrayList<>();
        Map<String, String> template = new HashMap<>();
        String keyText = rs.getString(keyTextIndex);
        template.put("key", keyText);
        template.put("table", mapping.table().name().table());
        String aggregateId = text(rs, OutboxColumn.AGGREGATE_ID, problems);
        template.put("aggregateId", aggregateId);
        String aggregateType = value(rs, OutboxColumn.AGGREGATE_TYPE, template, problems);
        template.put("aggregateType", aggregateType);
        String eventType = value(rs, OutboxColumn.EVENT_TYPE, template, problems);
        template.put("eventType", eventType);
        Object version = mapping.values().containsKey(OutboxColumn.EVENT_VERSION)
                ? mapping.values().get(OutboxColumn.EVENT_VERSION).evaluate(template)
                : index(OutboxColumn.EVENT_VERSION) == null ? null : rs.getObject(index(OutboxColumn.EVENT_VERSION));
        String eventId = value(rs, OutboxColumn.EVENT_ID, template, problems);
        Integer retries = index(OutboxColumn.RETRY_COUNT);
        return new OutboxRow(rs.getObject(index(OutboxColumn.KEY)), keyText,
                mapping.kind(OutboxColumn.ORDER).readComparable(rs, index(OutboxColumn.ORDER)), eventId, aggregateType,
                aggregateId, eventType, version, payloadPositions.isEmpty() ? text(rs, OutboxColumn.PAYLOAD, problems)
                : payloadObject(rs),
                time(rs, OutboxColumn.OCCURRED_AT), time(rs, OutboxColumn.CREATED_AT),
                text(rs, OutboxColumn.CORRELATION_ID, problems), text(rs, OutboxColumn.CAUSATION_ID, problems),
                text(rs, OutboxColumn.TRACE, problems), retries == null ? 0 : rs.getInt(retries),
                problems.isEmpty() ? null : String.join("; ", problems));
    }

    /** {@link PayloadFormat#COLUMNS}: the payload as a JSON object of the listed columns, in their order. */
    private String payloadObject(ResultSet rs) throws SQLException {
        StringBuilder json = new StringBuilder(64 * payloadPositions.size()).append('{');
        List<PayloadField> fields = mapping.payloadFields();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            fields.get(i).append(json, rs, payloadPositions.get(i));
        }
        return json.append('}').toString();
    }

    private Integer index(OutboxColumn c) {
        return position.get(c);
    }

    private String value(ResultSet rs, OutboxColumn c, Map<String, String> template, List<String> problems)
            throws SQLException {
        ValueTemplate given = mapping.values().get(c);
        return given != null ? given.evaluate(template) : text(rs, c, problems);
    }

    private String text(ResultSet rs, OutboxColumn c, List<String> problems) throws SQLException {
        Integer i = index(c);
        if (i == null) {
            return null;
        }
        try {
            return mapping.kind(c).readText(rs, i);
        } catch (ColumnKind.UnconvertibleValue e) {
            problems.add(logicalName(c) + ": " + e.getMessage());
            return null;
        }
    }

    private Instant time(ResultSet rs, OutboxColumn c) throws SQLException {
        Integer i = index(c);
        return i == null ? null : mapping.kind(c).readInstant(rs, i, mapping.naiveZone());
    }

    /** {@code payloadColumn} -> {@code payload}: how rejection reasons name a value. */
    static String logicalName(OutboxColumn c) {
        String p = c.parameter();
        return p.endsWith("Column") ? p.substring(0, p.length() - "Column".length()) : p;
    }
}
