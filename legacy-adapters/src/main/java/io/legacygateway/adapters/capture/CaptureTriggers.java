package io.legacygateway.adapters.capture;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SqlIdentifier;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

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

        /** The suffix of this operation's trigger name where each operation has its own trigger. */
        String nameSuffix() {
            return nameSuffix;
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
     * @param children        the table's inheritance children, which get a trigger of their own calling the same
     *                        function ({@link CaptureRouting}; PostgreSQL only, empty elsewhere)
     */
    public record Options(String eventTypePrefix, String aggregateType, Set<Operation> operations, Account definer,
                          List<TableName> children) {
        public Options {
            operations = operations.isEmpty() ? EnumSet.noneOf(Operation.class) : EnumSet.copyOf(operations);
            children = List.copyOf(children);
        }

        public Options(String eventTypePrefix, String aggregateType, Set<Operation> operations, Account definer) {
            this(eventTypePrefix, aggregateType, operations, definer, List.of());
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
        if (!o.children().isEmpty() && !dialect.hasCaptureSql("capture.function")) {
            throw new IllegalArgumentException("table '" + table.name() + "' has inheritance children "
                    + o.children() + ", which the capture on " + dialect.id() + " cannot cover");
        }
        return new CaptureTriggerDdl(dialect, table, outbox, o, base, String.join(", ", outboxColumns)).ddl();
    }

    /** A user value as an SQL string literal, after checking it against {@link #LITERAL}. */
    static String literal(String option, String value) {
        if (value == null || !LITERAL.matcher(value).matches()) {
            throw new IllegalArgumentException(option + ": '" + value + "' may only contain letters, digits and . _ : -"
                    + " (at most 100), because trigger DDL cannot bind values");
        }
        return "'" + value + "'";
    }
}
