package io.legacygateway.adapters.capture;

import static io.legacygateway.adapters.capture.CaptureTriggers.OUTBOX_COLUMNS;
import static io.legacygateway.adapters.capture.CaptureTriggers.SNAPSHOT_SUFFIX;
import static io.legacygateway.adapters.capture.CaptureTriggers.literal;

import io.legacygateway.adapters.capture.CaptureTriggers.Ddl;
import io.legacygateway.adapters.capture.CaptureTriggers.Operation;
import io.legacygateway.adapters.capture.CaptureTriggers.Options;
import io.legacygateway.adapters.capture.CaptureTriggers.Snapshot;
import io.legacygateway.adapters.outbox.mapping.ColumnKind;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SqlIdentifier;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableInspector.Column;
import io.legacygateway.adapters.sql.TableName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Renders the capture DDL of one table from the dialect's {@code capture/<db>.sql}, in the shape its statements define:
 * a function and one trigger (PostgreSQL), one trigger per operation (MariaDB, SQL Server), a Java trigger (H2) or one
 * trigger (Oracle). {@link CaptureTriggers#generate} has validated the table, the outbox and the options; the only
 * values written into the DDL are the {@link CaptureTriggers#LITERAL} checked ones.
 */
final class CaptureTriggerDdl {
    private final Dialect d;
    private final TableInspector.Table table;
    private final TableInspector.Table outbox;
    private final Options o;
    private final String base;
    private final Map<String, String> common = new HashMap<>();

    CaptureTriggerDdl(Dialect d, TableInspector.Table table, TableInspector.Table outbox, Options o, String base,
              String columns) {
        this.d = d;
        this.table = table;
        this.outbox = outbox;
        this.o = o;
        this.base = base;
        common.put("table", d.quote(table.name()));
        common.put("outbox", d.quote(outbox.name()));
        common.put("columns", columns);
        common.put("aggregateType", literal("--aggregate-type", o.aggregateType()));
        common.put("eventTypePrefix", literal("--event-type-prefix", o.eventTypePrefix()));
        common.put("tableName", literal("table", table.name().table()));
        common.put("definer", o.definer() == null || o.definer().host() == null ? ""
                : d.captureSql("capture.definer", Map.of("account", o.definer().grantee())) + " ");
    }

    Ddl ddl() {
        if (d.hasCaptureSql("capture.function")) {
            return functionAndTrigger();
        }
        if (d.hasCaptureSql("capture.trigger.INSERT")) {
            return triggerPerOperation();
        }
        if (d.hasCaptureSql("capture.comment")) {
            return javaTrigger();
        }
        return oneTrigger();
    }

    /** PostgreSQL: a function holding the logic, and one trigger for the chosen operations. */
    private Ddl functionAndTrigger() {
        Map<String, String> f = new HashMap<>(common);
        f.put("function", qualified(base));
        f.put("trigger", d.quote(base));
        f.put("operations", operations());
        f.put("newKey", key(row("new")));
        f.put("oldKey", key(row("old")));
        List<String> install = new ArrayList<>(List.of(d.captureSql("capture.dropTrigger", f),
                d.captureSql("capture.function", f)));
        if (o.definer() != null) {
            f.put("definer", d.quote(o.definer().user()));
            install.add(d.captureSql("capture.functionOwner", f));
        }
        // CREATE TRIGGER takes SHARE ROW EXCLUSIVE on the table until commit: writers wait, the snapshot after it
        // sees every write committed before, and every later write fires the trigger
        install.add(d.captureSql("capture.trigger", f));
        List<String> remove = new ArrayList<>(List.of(d.captureSql("capture.dropTrigger", f)));
        // a row routed to an inheritance child fires the child's triggers only: each gets its own, on the same
        // function (partitions need none: PostgreSQL clones the parent's row trigger onto them)
        for (TableName child : o.children()) {
            Map<String, String> onChild = new HashMap<>(f);
            onChild.put("table", d.quote(child));
            install.add(d.captureSql("capture.dropTrigger", onChild));
            install.add(d.captureSql("capture.trigger", onChild));
            remove.add(d.captureSql("capture.dropTrigger", onChild));
        }
        remove.add(d.captureSql("capture.dropFunction", f));
        return new Ddl(install, remove, snapshot(), null, null);
    }

    /** MariaDB, SQL Server: one trigger per operation, the row image spelled out column by column. */
    private Ddl triggerPerOperation() {
        List<String> install = new ArrayList<>();
        List<String> remove = new ArrayList<>();
        for (Operation op : Operation.values()) {
            Map<String, String> f = new HashMap<>(common);
            f.put("trigger", qualified(base + "_" + op.nameSuffix()));
            remove.add(d.captureSql("capture.dropTrigger", f));
            if (!o.operations().contains(op)) {
                continue;
            }
            f.put("eventType", literal("--event-type-prefix", o.eventTypePrefix() + op.eventSuffix()));
            f.put("newKey", key(row("new")));
            f.put("oldKey", key(row("old")));
            if (d.hasCaptureSql("capture.imagePair")) {
                f.put("newImage", image(row("new")));
                f.put("oldImage", image(row("old")));
            }
            if (d.hasCaptureSql("capture.joinPart")) {
                String newRow = row("new");
                String oldRow = row("old");
                f.put("newJoin", join(newRow + "2", newRow));
                f.put("oldJoin", join(oldRow + "2", op == Operation.UPDATE ? newRow : oldRow));
            }
            install.add(d.captureSql("capture.dropTrigger", f));
            install.add(d.captureSql("capture.trigger." + op.name(), f));
        }
        return new Ddl(install, remove, snapshot(), lockStatement("capture.lock"), lockStatement("capture.unlock"));
    }

    private String lockStatement(String name) {
        return d.hasCaptureSql(name) ? d.captureSql(name, common) : null;
    }

    /** The initial load, read with the dialect's row name for the table ({@code capture.snapshot.row}). */
    private Snapshot snapshot() {
        if (!d.hasCaptureSql("capture.snapshot")) {
            return null;
        }
        String row = d.captureSql("capture.snapshot.row", common);
        Map<String, String> f = new HashMap<>(common);
        f.put("key", key(row));
        f.put("order", table.primaryKey().stream().map(c -> row + "." + d.quote(c))
                .collect(Collectors.joining(", ")));
        if (d.hasCaptureSql("capture.imagePair")) {
            f.put("image", image(row));
        }
        return new Snapshot(d.captureSql("capture.snapshot", f), List.of(o.aggregateType(),
                o.eventTypePrefix() + SNAPSHOT_SUFFIX, table.name().table()));
    }

    /** H2: a Java trigger whose settings travel in the trigger's comment. */
    private Ddl javaTrigger() {
        Map<String, String> f = new HashMap<>(common);
        f.put("trigger", qualified(base));
        f.put("operations", operations());
        String settings = H2CaptureTrigger.settings(o.aggregateType(), o.eventTypePrefix(), outbox.name(),
                OUTBOX_COLUMNS.stream().map(c -> outbox.column(c).orElseThrow().name()).toList(),
                table.primaryKey());
        f.put("settings", "'" + settings + "'");
        return new Ddl(List.of(d.captureSql("capture.dropTrigger", f), d.captureSql("capture.trigger", f),
                d.captureSql("capture.comment", f)), List.of(d.captureSql("capture.dropTrigger", f)), null, null,
                null);
    }

    /** Oracle: one row-level trigger for the chosen operations. */
    private Ddl oneTrigger() {
        Map<String, String> f = new HashMap<>(common);
        f.put("trigger", qualified(base));
        f.put("operations", operations());
        f.put("newKey", key(row("new")));
        f.put("oldKey", key(row("old")));
        f.put("newImage", image(row("new")));
        f.put("oldImage", image(row("old")));
        return new Ddl(List.of(d.captureSql("capture.trigger", f)), List.of(d.captureSql("capture.dropTrigger", f)),
                null, null, null);
    }

    private String operations() {
        String separator = " " + d.captureSql("capture.operationSeparator", Map.of()) + " ";
        return o.operations().stream().map(Enum::name).collect(Collectors.joining(separator));
    }

    /** The trigger's name for the row before or after the change (NEW/OLD; SQL Server aliases n/o). */
    private String row(String which) {
        String name = "capture.row." + which;
        return d.hasCaptureSql(name) ? d.captureSql(name, Map.of()) : which.toUpperCase(Locale.ROOT);
    }

    private String key(String row) {
        String separator = d.hasCaptureSql("capture.keySeparator")
                ? " " + d.captureSql("capture.keySeparator", Map.of()) + " " : ", ";
        String parts = table.primaryKey().stream()
                .map(c -> d.captureSql("capture.keyPart", Map.of("row", row, "column", d.quote(c))))
                .collect(Collectors.joining(separator));
        return d.captureSql("capture.key", Map.of("parts", parts));
    }

    private String image(String row) {
        List<String> pairs = new ArrayList<>();
        for (Column c : table.columns().values()) {
            if (!SqlIdentifier.isSafe(c.name())) {
                throw new IllegalArgumentException("column '" + c.name() + "' of table '" + table.name()
                        + "' has a name the generator does not write into trigger DDL (letters, digits and _"
                        + " only)");
            }
            boolean binary = ColumnKind.of(c).filter(k -> k == ColumnKind.BINARY).isPresent();
            String statement = binary && d.hasCaptureSql("capture.imagePair.binary")
                    ? "capture.imagePair.binary" : "capture.imagePair";
            pairs.add(d.captureSql(statement, Map.of("name", c.name(), "row", row, "column", d.quote(c.name()))));
        }
        return String.join(", ", pairs);
    }

    private String join(String left, String right) {
        return table.primaryKey().stream().map(c -> d.captureSql("capture.joinPart",
                Map.of("left", left, "right", right, "column", d.quote(c)))).collect(Collectors.joining(" AND "));
    }

    /** A trigger or function name in the table's schema, when the table was named with one. */
    private String qualified(String name) {
        TableName n = table.name();
        return n.schema() == null ? d.quote(name) : d.quote(new TableName(n.schema(), name));
    }
}
