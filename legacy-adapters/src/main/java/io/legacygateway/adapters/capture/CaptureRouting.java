package io.legacygateway.adapters.capture;

import io.legacygateway.adapters.capture.CaptureTriggers.Operation;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the rows written to a captured table end up, on databases where a write to one table can land in another
 * (PostgreSQL: inheritance children, declarative partitions, INSTEAD rules). A row trigger fires on the table that
 * receives the row, so a capture on the parent alone wrote no outbox row for rows routed to a child (an old-style
 * partitioning by inheritance and INSTEAD rules, as in the DVD-rental sample schema).
 *
 * <ul>
 *   <li>Partitions of a partitioned table: PostgreSQL (11+) clones the parent's AFTER row trigger onto every partition,
 *       also onto partitions attached later; nothing more is installed, but the installer needs TRIGGER on each.</li>
 *   <li>Inheritance children: each gets a trigger of its own calling the same function (the payload names the captured
 *       table). A child created after the install is not captured until {@code triggers --install} runs again.</li>
 *   <li>INSTEAD rules of the table or of a captured child, for a captured operation, that write to a relation the
 *       capture does not cover: refused ({@link #refusals}), naming the rule and the relation, since those writes
 *       would leave no outbox row. A rule that writes only to captured relations (or to none: DO INSTEAD NOTHING
 *       changes no row) is accepted.</li>
 * </ul>
 * Other dialects have no such routing ({@code capture.descendants} undefined): nothing is found.
 *
 * @param children   the inheritance children (at any depth) that need a trigger of their own
 * @param partitions the partitions (at any depth) onto which PostgreSQL clones the trigger
 * @param refusals   one message per rule that routes a captured write out of the capture
 */
public record CaptureRouting(List<TableName> children, List<TableName> partitions, List<String> refusals) {

    /** Nothing routed elsewhere. */
    public static final CaptureRouting NONE = new CaptureRouting(List.of(), List.of(), List.of());

    /** Every table besides the captured one that its rows may land in. */
    public List<TableName> descendants() {
        List<TableName> all = new ArrayList<>(children);
        all.addAll(partitions);
        return all;
    }

    /**
     * @param table      the captured table, qualified with its schema
     * @param operations the captured operations: a rule for another one does not matter
     */
    public static CaptureRouting of(Connection c, Dialect d, TableName table, Set<Operation> operations)
            throws SQLException {
        if (!d.hasCaptureSql("capture.descendants")) {
            return NONE;
        }
        List<TableName> children = new ArrayList<>();
        List<TableName> partitions = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(d.captureSql("capture.descendants", Map.of()))) {
            ps.setString(1, d.quote(table));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    TableName child = new TableName(rs.getString(1), rs.getString(2));
                    (rs.getBoolean(3) ? partitions : children).add(child);
                }
            }
        }
        Set<String> covered = new LinkedHashSet<>();
        covered.add(key(table));
        children.forEach(t -> covered.add(key(t)));
        partitions.forEach(t -> covered.add(key(t)));
        List<TableName> withRules = new ArrayList<>(List.of(table));
        withRules.addAll(children);
        List<String> refusals = new ArrayList<>();
        for (TableName relation : withRules) {
            try (PreparedStatement ps = c.prepareStatement(d.captureSql("capture.insteadRules", Map.of()))) {
                ps.setString(1, d.quote(relation));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Operation op = Operation.valueOf(rs.getString(2));
                        String schema = rs.getString(3);
                        String target = rs.getString(4);
                        if (target != null && operations.contains(op)
                                && !covered.contains(key(new TableName(schema, target)))) {
                            refusals.add("rule '" + rs.getString(1) + "' on " + relation + " turns an " + op + " into a"
                                    + " write to " + schema + "." + target + ", which the capture of " + table
                                    + " does not cover (neither the table nor one of its inheritance children or"
                                    + " partitions): those writes would leave no outbox row. Capture " + target
                                    + " as a table of its own, leave " + op + " out of --operations, or drop the rule");
                        }
                    }
                }
            }
        }
        return new CaptureRouting(List.copyOf(children), List.copyOf(partitions), List.copyOf(refusals));
    }

    private static String key(TableName t) {
        return t.schema() + "." + t.table();
    }
}
