package io.legacygateway.adapters.capture;

import io.legacygateway.adapters.capture.CaptureTriggers.Account;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableInspector.Table;
import io.legacygateway.adapters.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the capture needs from the database's accounts, read from the database's own privilege views before anything
 * is installed, so that an install never leaves triggers that fail the application's writes.
 *
 * <ul>
 *   <li>MariaDB: the triggers run as their DEFINER (the installer, or {@code --definer}), which needs TRIGGER and
 *       SELECT on the table (every captured column) and INSERT on the outbox's columns at every write. The installer
 *       needs TRIGGER on the table, and SELECT on every column of it: MariaDB lists to a user only the columns it
 *       holds a privilege on, and the triggers' row images name the columns the installer sees (the table's own
 *       columns are read from {@code SHOW CREATE TABLE}, which any privilege allows, so that an image never lacks
 *       one); for another definer SET USER (SUPER before 10.5.2) and SELECT on the
 *       {@code mysql} database (to read the definer's grants); for a snapshot LOCK TABLES and SELECT on the table and
 *       the outbox, INSERT on the outbox. Read from {@code information_schema.*_PRIVILEGES}.</li>
 *   <li>PostgreSQL: the function is SECURITY DEFINER and writes the outbox as its owner (the installer, or
 *       {@code --definer}), which needs USAGE on the outbox's schema and INSERT on the outbox; reading NEW and OLD
 *       needs nothing. The installer needs TRIGGER on the table and CREATE on its schema; for another owner
 *       membership in that role (which needs CREATE on the schema); for a snapshot SELECT on the table. Read with
 *       {@code has_table_privilege} and its siblings.</li>
 *   <li>Other dialects: nothing is checked ({@link #checked}); H2's Java trigger writes as the writing session.</li>
 * </ul>
 *
 * <p>Not counted: privileges held only through roles (MariaDB) — grant them to the account itself.
 */
public final class CaptureGrants {

    /** A privilege an account lacks, on an object, and what the capture needs it for. */
    public record Missing(String privilege, String account, String object, String neededFor) {
        public String message() {
            return account + " lacks " + privilege + " on " + object + ", needed " + neededFor;
        }
    }

    private final Connection c;
    private final Dialect d;

    private CaptureGrants(Connection c, Dialect d) {
        this.c = c;
        this.d = d;
    }

    /** Whether this dialect's privileges are checked before installing. */
    public static boolean checked(Dialect d) {
        return d.hasCaptureSql("capture.currentAccount");
    }

    /**
     * Whether the database's metadata hides the tables on which a user holds no privilege (MariaDB: information_schema
     * lists only those), so that a table it cannot find may exist and merely be invisible to the user.
     */
    public static boolean hidesTablesWithoutPrivilege(Dialect d) {
        return d.hasCaptureSql("capture.grants.held");
    }

    /** The account the connection runs as ({@code 'user'@'host'} on MariaDB, the role on PostgreSQL). */
    public static Account currentAccount(Connection c, Dialect d) throws SQLException {
        String current = new CaptureGrants(c, d).text("capture.currentAccount");
        return Account.parse(current);
    }

    /**
     * The table's schema (PostgreSQL) or database (MariaDB) as stored, for a table named without one; the name as
     * given where the dialect has no such lookup.
     */
    public static Table qualified(Connection c, Dialect d, Table table) throws SQLException {
        if (table.name().schema() != null || !d.hasCaptureSql("capture.schemaOf")) {
            return table;
        }
        String schema = new CaptureGrants(c, d).text("capture.schemaOf", table.name().table());
        return schema == null ? table
                : new Table(new TableName(schema, table.name().table()), table.columns(), table.primaryKey());
    }

    /**
     * Every privilege that the installer (the connection's account) and the definer lack for installing the capture
     * of {@code table} into {@code outbox} (both {@link #qualified}); empty when all are held or the dialect is not
     * {@link #checked}.
     *
     * @param definer  the account the triggers will run as, or {@code null} for the installer
     * @param snapshot whether the install also writes the initial load
     */
    public static List<Missing> check(Connection c, Dialect d, Table table, Table outbox, Account definer,
                                      boolean snapshot) throws SQLException {
        return check(c, d, table, outbox, definer, snapshot, CaptureRouting.NONE);
    }

    /**
     * As {@link #check(Connection, Dialect, Table, Table, Account, boolean)}, for a table whose rows also land in the
     * {@link CaptureRouting#descendants} of {@code routing}: the installer needs TRIGGER on each of them too
     * (PostgreSQL checks it also where it clones the trigger onto partitions).
     */
    public static List<Missing> check(Connection c, Dialect d, Table table, Table outbox, Account definer,
                                      boolean snapshot, CaptureRouting routing) throws SQLException {
        if (!checked(d)) {
            return List.of();
        }
        CaptureGrants g = new CaptureGrants(c, d);
        Account installer = currentAccount(c, d);
        Account runsAs = definer == null ? installer : definer;
        boolean other = !runsAs.equals(installer);
        return d.hasCaptureSql("capture.grants.held")
                ? new MariaDbGrants(c, d, g).missing(table, outbox, installer, runsAs, other, snapshot)
                : new PostgresGrants(d, g).missing(table, outbox, installer, runsAs, other, snapshot,
                        routing.descendants());
    }

    /** The table's column names. */
    static List<String> columns(Table table) {
        return table.columns().values().stream().map(TableInspector.Column::name).toList();
    }

    /** The names of the outbox columns the triggers fill, as the outbox spells them. */
    static List<String> outboxColumns(Table outbox) {
        return CaptureTriggers.OUTBOX_COLUMNS.stream()
                .map(name -> outbox.column(name).map(TableInspector.Column::name).orElse(name.toLowerCase(Locale.ROOT)))
                .toList();
    }

    /** The dialect's statement {@code statement} answers true. */
    boolean bool(String statement, Object... binds) throws SQLException {
        String v = text(statement, binds);
        return "t".equals(v) || "true".equalsIgnoreCase(v) || "1".equals(v);
    }

    /** The number the dialect's statement {@code statement} answers (0 for no row). */
    long count(String statement, Object... binds) throws SQLException {
        String n = text(statement, binds);
        return n == null ? 0 : Long.parseLong(n);
    }

    private String text(String statement, Object... binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(d.captureSql(statement, Map.of()))) {
            for (int i = 0; i < binds.length; i++) {
                ps.setObject(i + 1, binds[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
