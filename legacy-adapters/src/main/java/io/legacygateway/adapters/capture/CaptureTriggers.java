package io.legacygateway.adapters.capture;

import io.legacygateway.adapters.outbox.ColumnKind;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SqlIdentifier;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableInspector.Column;
import io.legacygateway.adapters.sql.TableName;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Generates the DDL that captures changes of a business table into the gateway's outbox, for applications that cannot
 * write an outbox themselves: row-level AFTER triggers that insert, in the application's own transaction, one outbox
 * row per changed row with the row key as aggregate id, the operation in the event type, and a JSON image of the new
 * and old row as payload. The application's SQL stays as it is; a write it rolls back leaves no outbox row.
 *
 * <p>The statements live in {@code capture/<db>.sql}; their shape follows from which statements a dialect defines
 * (one function and one trigger, one trigger per operation, or a Java trigger on H2). DDL cannot bind values, so the
 * only values in it, the aggregate type and the event-type prefix (and a MariaDB definer, {@link Account}), are
 * restricted to {@link #LITERAL} and written as string literals; table and column names come from the database's
 * metadata and are quoted. The initial load ({@link Snapshot}) is DML and binds its values.
 *
 * <p>Not handled: changes made without firing triggers (TRUNCATE, bulk loads with triggers disabled, replication
 * appliers that skip triggers); a primary key changed by an UPDATE is reported under its new value.
 */
public final class CaptureTriggers {

    /** What a user-given value in the DDL may contain: no quote, backslash or space can reach the SQL text. */
    public static final Pattern LITERAL = Pattern.compile("[A-Za-z0-9_.:-]{0,100}");

    /** The outbox columns the triggers fill; the rest take the table's defaults (id, seq, status, created_at). */
    static final List<String> OUTBOX_COLUMNS = List.of("aggregate_type", "aggregate_id", "event_type", "payload");

    /** Captured operations and the suffix of their event type. */
    public enum Operation {
        INSERT("Inserted", "ins"), UPDATE("Updated", "upd"), DELETE("Deleted", "del");

        private final String eventSuffix;
        private final String nameSuffix;

        Operation(String eventSuffix, String nameSuffix) {
            this.eventSuffix = eventSuffix;
            this.nameSuffix = nameSuffix;
        }

        public String eventSuffix() {
            return eventSuffix;
        }
    }

    /** The event-type suffix of the initial load: one {@code <prefix>Snapshot} intent per row already there. */
    public static final String SNAPSHOT_SUFFIX = "Snapshot";

    /**
     * The account the triggers run as. On MariaDB the trigger's {@code DEFINER} ({@code 'user'@'host'}); on
     * PostgreSQL the owner of the {@code SECURITY DEFINER} function (a role, {@code host} is {@code null}).
     */
    public record Account(String user, String host) {

        private static final Pattern PART = Pattern.compile("[A-Za-z0-9_.%:-]{1,80}");

        public Account {
            if (user == null || !PART.matcher(user).matches() || host != null && !PART.matcher(host).matches()) {
                throw new IllegalArgumentException("--definer: '" + user + (host == null ? "" : "@" + host)
                        + "' may only contain letters, digits and . _ % : - (user@host on MariaDB, a role on"
                        + " PostgreSQL)");
            }
        }

        /** Parses {@code user@host}, {@code 'user'@'host'} or a bare {@code role}. */
        public static Account parse(String value) {
            String v = value == null ? "" : value.strip();
            int at = v.lastIndexOf('@');
            return at < 0 ? new Account(unquote(v), null)
                    : new Account(unquote(v.substring(0, at)), unquote(v.substring(at + 1)));
        }

        private static String unquote(String part) {
            return part.length() >= 2 && (part.startsWith("'") && part.endsWith("'")
                    || part.startsWith("`") && part.endsWith("`")) ? part.substring(1, part.length() - 1) : part;
        }

        /** As MariaDB writes it in {@code DEFINER} clauses and in the {@code GRANTEE} column: {@code 'user'@'host'}. */
        public String grantee() {
            return host == null ? "'" + user + "'" : "'" + user + "'@'" + host + "'";
        }

        @Override
        public String toString() {
            return host == null ? user : grantee();
        }
    }

    /**
     * @param eventTypePrefix event types are {@code <prefix>Inserted}, {@code <prefix>Updated}, {@code <prefix>Deleted}
     *                        (and {@code <prefix>Snapshot} for the initial load)
     * @param aggregateType   the outbox rows' aggregate type
     * @param operations      the operations to capture
     * @param definer         the account the triggers run as, or {@code null} for the installing account
     */
    public record Options(String eventTypePrefix, String aggregateType, Set<Operation> operations, Account definer) {
        public Options {
            operations = operations.isEmpty() ? EnumSet.noneOf(Operation.class) : EnumSet.copyOf(operations);
        }

        public Options(String eventTypePrefix, String aggregateType, Set<Operation> operations) {
            this(eventTypePrefix, aggregateType, operations, null);
        }
    }

    /**
     * The initial load: one statement that inserts one {@code <prefix>Snapshot} outbox row per row of the table,
     * with the same aggregate id and row image as the triggers; its values are {@code ?} binds.
     */
    public record Snapshot(String sql, List<String> binds) {
    }

    /**
     * The statements to run, in order, to install or to remove the capture of one table.
     *
     * @param snapshot the initial load, or {@code null} where the dialect has none
     * @param lock     where DDL commits by itself (MariaDB): the statement that keeps the application's writers out
     *                 while the triggers are created and the snapshot is read ({@code LOCK TABLES}), else {@code null}
     * @param unlock   the statement that lets them in again, with {@code lock}
     */
    public record Ddl(List<String> install, List<String> remove, Snapshot snapshot, String lock, String unlock) {
    }

    private CaptureTriggers() {
    }

    /** The name of the trigger (or the base of the per-operation names) for a table. */
    public static String baseName(TableInspector.Table table) {
        return "gw_capture_" + table.name().table();
    }

    /**
     * @throws IllegalArgumentException with a message for the user when the table has no primary key, is the outbox
     *                                  itself, the outbox lacks a column the triggers fill, or a value or name cannot
     *                                  be written safely
     */
    public static Ddl generate(Dialect dialect, TableInspector.Table table, TableInspector.Table outbox, Options o) {
        if (table.primaryKey().isEmpty()) {
            throw new IllegalArgumentException("table '" + table.name() + "' has no primary key: the capture triggers"
                    + " name each changed row by its primary key (the events' aggregate id). Add a primary key, or"
                    + " capture a table that has one");
        }
        if (table.name().table().equalsIgnoreCase(outbox.name().table())) {
            throw new IllegalArgumentException("table '" + table.name() + "' is the outbox the triggers write to");
        }
        literal("--event-type-prefix", o.eventTypePrefix());
        literal("--aggregate-type", o.aggregateType());
        if (o.aggregateType().isEmpty()) {
            throw new IllegalArgumentException("--aggregate-type: must not be empty");
        }
        if (o.operations().isEmpty()) {
            throw new IllegalArgumentException("--operations: name at least one of INSERT, UPDATE, DELETE");
        }
        String base = baseName(table);
        if (base.length() + 4 > 63) {
            throw new IllegalArgumentException("table name '" + table.name().table() + "' is too long for the trigger"
                    + " name '" + base + "' (at most 63 characters)");
        }
        List<String> outboxColumns = new ArrayList<>();
        for (String c : OUTBOX_COLUMNS) {
            outboxColumns.add(dialect.quote(outbox.column(c).orElseThrow(() -> new IllegalArgumentException(
                    "--outbox-table: table '" + outbox.name() + "' has no column " + c + "; the triggers write the"
                    + " default outbox columns " + OUTBOX_COLUMNS)).name()));
        }
        for (String key : table.primaryKey()) {
            SqlIdentifier.require("primary key column of '" + table.name() + "'", key);
        }
        if (o.definer() != null) {
            boolean userAtHost = dialect.hasCaptureSql("capture.definer");
            if (!userAtHost && !dialect.hasCaptureSql("capture.functionOwner")) {
                throw new IllegalArgumentException("--definer: not supported on " + dialect.id());
            }
            if (userAtHost != (o.definer().host() != null)) {
                throw new IllegalArgumentException("--definer: '" + o.definer() + "' must be " + (userAtHost
                        ? "an account user@host on " : "a role (no @host) on ") + dialect.id());
            }
        }
        return new Generator(dialect, table, outbox, o, base, String.join(", ", outboxColumns)).ddl();
    }

    /** A user value as an SQL string literal, after checking it against {@link #LITERAL}. */
    static String literal(String option, String value) {
        if (value == null || !LITERAL.matcher(value).matches()) {
            throw new IllegalArgumentException(option + ": '" + value + "' may only contain letters, digits and . _ : -"
                    + " (at most 100), because trigger DDL cannot bind values");
        }
        return "'" + value + "'";
    }

    private static final class Generator {
        private final Dialect d;
        private final TableInspector.Table table;
        private final TableInspector.Table outbox;
        private final Options o;
        private final String base;
        private final Map<String, String> common = new HashMap<>();

        Generator(Dialect d, TableInspector.Table table, TableInspector.Table outbox, Options o, String base,
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
            return new Ddl(install, List.of(d.captureSql("capture.dropTrigger", f),
                    d.captureSql("capture.dropFunction", f)), snapshot(), null, null);
        }

        /** MariaDB, SQL Server: one trigger per operation, the row image spelled out column by column. */
        private Ddl triggerPerOperation() {
            List<String> install = new ArrayList<>();
            List<String> remove = new ArrayList<>();
            for (Operation op : Operation.values()) {
                Map<String, String> f = new HashMap<>(common);
                f.put("trigger", qualified(base + "_" + op.nameSuffix));
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
}
