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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What the capture needs from the database's accounts, read from the database's own privilege views before anything
 * is installed, so that an install never leaves triggers that fail the application's writes.
 *
 * <ul>
 *   <li>MariaDB: the triggers run as their DEFINER (the installer, or {@code --definer}), which needs TRIGGER and
 *       SELECT on the table (every captured column) and INSERT on the outbox's columns at every write. The installer
 *       needs TRIGGER on the table; for another definer SET USER (SUPER before 10.5.2) and SELECT on the
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
    private final Map<String, List<String[]>> mariaDbGrants = new HashMap<>();

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
        if (!checked(d)) {
            return List.of();
        }
        CaptureGrants g = new CaptureGrants(c, d);
        Account installer = currentAccount(c, d);
        Account runsAs = definer == null ? installer : definer;
        boolean other = !runsAs.equals(installer);
        return d.hasCaptureSql("capture.grants.held") ? g.mariaDb(table, outbox, installer, runsAs, other, snapshot)
                : g.postgres(table, outbox, installer, runsAs, other, snapshot);
    }

    private List<Missing> mariaDb(Table table, Table outbox, Account installer, Account definer, boolean other,
                                  boolean snapshot) throws SQLException {
        List<Missing> missing = new ArrayList<>();
        String t = table.name().toString();
        if (other) {
            if (!mariaDbHeld(installer, null, null, null, "SET USER") && !mariaDbHeld(installer, null, null, null,
                    "SUPER")) {
                missing.add(new Missing("SET USER (SUPER before MariaDB 10.5.2)", installer.grantee(), "*.*",
                        "to create triggers with DEFINER = " + definer.grantee()));
            }
            if (count("capture.grants.account", definer.grantee()) == 0) {
                missing.add(new Missing("SELECT", installer.grantee(), "mysql.*", "to read the grants of the definer "
                        + definer.grantee() + " (or the definer does not exist)"));
                return missing;
            }
        }
        if (!mariaDbHeld(installer, table.name(), null, "TRIGGER")) {
            missing.add(new Missing("TRIGGER", installer.grantee(), t, "to create the triggers"));
        }
        String asDefiner = "by the triggers at every write of the application, which run as their definer "
                + definer.grantee();
        if (other && !mariaDbHeld(definer, table.name(), null, "TRIGGER")) {
            missing.add(new Missing("TRIGGER", definer.grantee(), t, asDefiner));
        }
        mariaDbColumns(missing, definer, table, columns(table), "SELECT", asDefiner + " (they read the row)");
        mariaDbColumns(missing, definer, outbox, outboxColumns(outbox), "INSERT", asDefiner);
        if (snapshot) {
            String forSnapshot = "for --snapshot (the tables stay locked while the triggers are created and the rows"
                    + " read)";
            for (String schema : new LinkedHashSet<>(List.of(table.name().schema(), outbox.name().schema()))) {
                if (!mariaDbHeld(installer, schema, null, null, "LOCK TABLES")) {
                    missing.add(new Missing("LOCK TABLES", installer.grantee(), schema + ".*", forSnapshot));
                }
            }
            if (other) {
                mariaDbColumns(missing, installer, table, columns(table), "SELECT", forSnapshot);
            }
            mariaDbColumns(missing, installer, outbox, List.of(), "SELECT", forSnapshot);
            mariaDbColumns(missing, installer, outbox, outboxColumns(outbox), "INSERT", forSnapshot);
        }
        return missing;
    }

    /** Adds what {@code account} lacks of {@code privilege} on the table, or on each of {@code columns} of it. */
    private void mariaDbColumns(List<Missing> missing, Account account, Table table, List<String> columns,
                                String privilege, String neededFor) throws SQLException {
        if (mariaDbHeld(account, table.name(), null, privilege)) {
            return;
        }
        List<String> lacking = new ArrayList<>();
        for (String column : columns) {
            if (!mariaDbHeld(account, table.name(), column, privilege)) {
                lacking.add(column);
            }
        }
        if (columns.isEmpty() || !lacking.isEmpty()) {
            missing.add(new Missing(privilege, account.grantee(), table.name() + (lacking.isEmpty() ? ""
                    : " (columns " + String.join(", ", lacking) + ")"), neededFor));
        }
    }

    private boolean mariaDbHeld(Account account, TableName table, String column, String privilege)
            throws SQLException {
        return mariaDbHeld(account, table.schema(), table.table(), column, privilege);
    }

    /** Whether a grant covers the privilege: global, on the database, on the table, or on the column. */
    private boolean mariaDbHeld(Account account, String schema, String table, String column, String privilege)
            throws SQLException {
        for (String[] g : mariaDbGrants(account, schema)) {
            if (g[0].equalsIgnoreCase(privilege) && (g[1] == null || g[1].equals(table))
                    && (g[2] == null || g[2].equalsIgnoreCase(column))) {
                return true;
            }
        }
        return false;
    }

    private List<String[]> mariaDbGrants(Account account, String schema) throws SQLException {
        String key = account.grantee() + "/" + schema;
        List<String[]> rows = mariaDbGrants.get(key);
        if (rows == null) {
            rows = new ArrayList<>();
            String grantee = account.grantee();
            String db = Objects.requireNonNullElse(schema, "");
            try (PreparedStatement ps = c.prepareStatement(d.captureSql("capture.grants.held", Map.of()))) {
                Object[] binds = {grantee, grantee, db, grantee, db, grantee, db};
                for (int i = 0; i < binds.length; i++) {
                    ps.setObject(i + 1, binds[i]);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
                    }
                }
            }
            mariaDbGrants.put(key, rows);
        }
        return rows;
    }

    private List<Missing> postgres(Table table, Table outbox, Account installer, Account owner, boolean other,
                                   boolean snapshot) throws SQLException {
        List<Missing> missing = new ArrayList<>();
        String t = d.quote(table.name());
        String o = d.quote(outbox.name());
        String inst = installer.user();
        if (!bool("capture.grants.table", inst, t, "TRIGGER")) {
            missing.add(new Missing("TRIGGER", inst, table.name().toString(), "to create the trigger"));
        }
        if (table.name().schema() != null && !bool("capture.grants.schema", inst, table.name().schema(), "CREATE")) {
            missing.add(new Missing("CREATE", inst, "schema " + table.name().schema(), "to create the function"));
        }
        if (other) {
            if (count("capture.grants.account", owner.user()) == 0) {
                missing.add(new Missing("(role does not exist)", owner.user(), "the cluster", "as --definer"));
                return missing;
            }
            if (!bool("capture.grants.member", inst, owner.user())) {
                missing.add(new Missing("membership in role " + owner.user(), inst, "the cluster",
                        "to make " + owner.user() + " the function's owner"));
            }
            if (table.name().schema() != null && !bool("capture.grants.schema", owner.user(), table.name().schema(),
                    "CREATE")) {
                missing.add(new Missing("CREATE", owner.user(), "schema " + table.name().schema(),
                        "to own the function"));
            }
        }
        String asOwner = "by the trigger at every write of the application: its SECURITY DEFINER function writes"
                + " the outbox as its owner " + owner.user();
        postgresInsert(missing, owner.user(), outbox, o, asOwner);
        if (snapshot) {
            String forSnapshot = "for --snapshot (it reads the rows already there)";
            if (!bool("capture.grants.table", inst, t, "SELECT")) {
                missing.add(new Missing("SELECT", inst, table.name().toString(), forSnapshot));
            }
            if (other) {
                postgresInsert(missing, inst, outbox, o, forSnapshot);
            }
        }
        return missing;
    }

    private void postgresInsert(List<Missing> missing, String role, Table outbox, String quoted, String neededFor)
            throws SQLException {
        if (outbox.name().schema() != null && !bool("capture.grants.schema", role, outbox.name().schema(), "USAGE")) {
            missing.add(new Missing("USAGE", role, "schema " + outbox.name().schema(), neededFor));
        }
        if (bool("capture.grants.table", role, quoted, "INSERT")) {
            return;
        }
        List<String> lacking = new ArrayList<>();
        for (String column : outboxColumns(outbox)) {
            if (!bool("capture.grants.column", role, quoted, column, "INSERT")) {
                lacking.add(column);
            }
        }
        if (!lacking.isEmpty()) {
            missing.add(new Missing("INSERT", role, outbox.name() + " (columns " + String.join(", ", lacking) + ")",
                    neededFor));
        }
    }

    private static List<String> columns(Table table) {
        return table.columns().values().stream().map(TableInspector.Column::name).toList();
    }

    private static List<String> outboxColumns(Table outbox) {
        return CaptureTriggers.OUTBOX_COLUMNS.stream()
                .map(name -> outbox.column(name).map(TableInspector.Column::name).orElse(name.toLowerCase(Locale.ROOT)))
                .toList();
    }

    private boolean bool(String statement, Object... binds) throws SQLException {
        String v = text(statement, binds);
        return "t".equals(v) || "true".equalsIgnoreCase(v) || "1".equals(v);
    }

    private long count(String statement, Object... binds) throws SQLException {
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
