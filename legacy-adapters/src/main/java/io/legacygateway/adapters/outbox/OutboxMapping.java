package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.sql.SqlIdentifier;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableInspector.Column;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * How one outbox table maps onto the relay's logical columns, resolved against the live table.
 *
 * @param table         the table as stored
 * @param columns       mapped logical columns to their stored names; absent optional columns have no entry
 * @param pendingValue  status value of a row waiting to be published
 * @param publishedValue status value written once the broker accepted the event
 * @param failedValue   status value of a row parked with its reason
 * @param payloadFormat how the payload becomes CloudEvents data
 */
public record OutboxMapping(TableInspector.Table table, Map<OutboxColumn, String> columns, String pendingValue,
                            String publishedValue, String failedValue, PayloadFormat payloadFormat) {

    public OutboxMapping {
        columns = Collections.unmodifiableMap(new EnumMap<>(columns));
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

    /**
     * Resolves configured column names against the table.
     *
     * @param configured   parameter name to value, as given by the user (missing keys take the defaults)
     * @param label        names a parameter in error messages, for example {@code outbox-relay 'orders' parameter 'x'}
     * @throws IllegalArgumentException naming the parameter of the first column that is unsafe, missing or required
     */
    public static Map<OutboxColumn, String> resolveColumns(TableInspector.Table table, Map<String, String> configured,
                                                           UnaryOperator<String> label) {
        Map<OutboxColumn, String> resolved = new EnumMap<>(OutboxColumn.class);
        for (OutboxColumn c : OutboxColumn.values()) {
            String value = configured.get(c.parameter());
            boolean explicit = value != null && !value.isBlank();
            String name = explicit ? value.strip() : c.defaultName();
            if (OutboxColumn.ABSENT.equalsIgnoreCase(name)) {
                if (c.required()) {
                    throw new IllegalArgumentException(label.apply(c.parameter()) + ": the " + c.description()
                            + " column is required and cannot be '" + OutboxColumn.ABSENT + "'");
                }
                continue;
            }
            SqlIdentifier.require(label.apply(c.parameter()), name);
            Optional<Column> column = table.column(name);
            if (column.isPresent()) {
                resolved.put(c, column.get().name());
            } else if (explicit || c.required()) {
                throw new IllegalArgumentException(label.apply(c.parameter()) + ": column '" + name
                        + "' does not exist in table '" + table.name() + "'"
                        + (c.required() ? "" : " (set it to '" + OutboxColumn.ABSENT + "' if the table has no such column)"));
            }
        }
        return resolved;
    }
}
