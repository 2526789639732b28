package io.legacygateway.adapters.capture;

import io.legacygateway.adapters.capture.CaptureGrants.Missing;
import io.legacygateway.adapters.capture.CaptureTriggers.Account;
import io.legacygateway.adapters.sql.Dialect;
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
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link CaptureGrants} on MariaDB: what the installer and the triggers' DEFINER lack, read from
 * {@code information_schema.*_PRIVILEGES} ({@code capture.grants.held}), one read per account and database. Privileges
 * held only through roles are not counted.
 */
final class MariaDbGrants {

    /** A column's line in {@code SHOW CREATE TABLE}: two spaces, then its backquoted name (keys start otherwise). */
    private static final Pattern COLUMN_LINE = Pattern.compile("(?m)^  `((?:[^`]|``)+)` ");

    private final Connection c;
    private final Dialect d;
    private final CaptureGrants queries;
    /** The grants read, by account and database. */
    private final Map<String, List<String[]>> grants = new HashMap<>();

    MariaDbGrants(Connection c, Dialect d, CaptureGrants queries) {
        this.c = c;
        this.d = d;
        this.queries = queries;
    }

    /** See {@link CaptureGrants#check}; {@code other}: the definer is not the installer. */
    List<Missing> missing(Table table, Table outbox, Account installer, Account definer, boolean other,
                          boolean snapshot) throws SQLException {
        List<Missing> missing = new ArrayList<>();
        String t = table.name().toString();
        List<String> declared = declaredColumns(table);
        List<String> unseen = declared.stream().filter(col -> table.column(col).isEmpty()).toList();
        if (!unseen.isEmpty()) {
            // information_schema lists only the columns the installer holds a privilege on: the triggers' row images
            // would silently lack the others (an installer with TRIGGER alone saw only the primary key)
            missing.add(new Missing("SELECT", installer.grantee(), t + " (columns " + String.join(", ", unseen)
                    + ")", "to see the table's columns, which the triggers' row images name one by one (MariaDB"
                    + " shows a user only the columns it holds a privilege on; without them every event would"
                    + " lack those columns)"));
        }
        if (other) {
            if (!held(installer, null, null, null, "SET USER") && !held(installer, null, null, null,
                    "SUPER")) {
                missing.add(new Missing("SET USER (SUPER before MariaDB 10.5.2)", installer.grantee(), "*.*",
                        "to create triggers with DEFINER = " + definer.grantee()));
            }
            if (queries.count("capture.grants.account", definer.grantee()) == 0) {
                missing.add(new Missing("SELECT", installer.grantee(), "mysql.*", "to read the grants of the definer "
                        + definer.grantee() + " (or the definer does not exist)"));
                return missing;
            }
        }
        if (!held(installer, table.name(), null, "TRIGGER")) {
            missing.add(new Missing("TRIGGER", installer.grantee(), t, "to create the triggers"));
        }
        String asDefiner = "by the triggers at every write of the application, which run as their definer "
                + definer.grantee();
        if (other && !held(definer, table.name(), null, "TRIGGER")) {
            missing.add(new Missing("TRIGGER", definer.grantee(), t, asDefiner));
        }
        columns(missing, definer, table, declared, "SELECT", asDefiner + " (they read the row)");
        columns(missing, definer, outbox, CaptureGrants.outboxColumns(outbox), "INSERT", asDefiner);
        if (snapshot) {
            String forSnapshot = "for --snapshot (the tables stay locked while the triggers are created and the rows"
                    + " read)";
            for (String schema : new LinkedHashSet<>(List.of(table.name().schema(), outbox.name().schema()))) {
                if (!held(installer, schema, null, null, "LOCK TABLES")) {
                    missing.add(new Missing("LOCK TABLES", installer.grantee(), schema + ".*", forSnapshot));
                }
            }
            if (other) {
                columns(missing, installer, table, declared, "SELECT", forSnapshot);
            }
            columns(missing, installer, outbox, List.of(), "SELECT", forSnapshot);
            columns(missing, installer, outbox, CaptureGrants.outboxColumns(outbox), "INSERT", forSnapshot);
        }
        return missing;
    }

    /**
     * Every column of the table, read from its definition ({@code SHOW CREATE TABLE}, allowed by any privilege on the
     * table), whatever the connection's user may see of them: each column line starts with its backquoted name
     * (a backquote in a name is doubled).
     */
    private List<String> declaredColumns(Table table) throws SQLException {
        List<String> names = new ArrayList<>();
        String sql = d.captureSql("capture.declaredColumns", Map.of("table", d.quote(table.name())));
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            if (rs.next() && rs.getMetaData().getColumnCount() >= 2) {
                Matcher m = COLUMN_LINE.matcher(rs.getString(2));
                while (m.find()) {
                    names.add(m.group(1).replace("``", "`"));
                }
            }
        }
        return names.isEmpty() ? CaptureGrants.columns(table) : names;
    }

    /** Adds what {@code account} lacks of {@code privilege} on the table, or on each of {@code columns} of it. */
    private void columns(List<Missing> missing, Account account, Table table, List<String> columns,
                                String privilege, String neededFor) throws SQLException {
        if (held(account, table.name(), null, privilege)) {
            return;
        }
        List<String> lacking = new ArrayList<>();
        for (String column : columns) {
            if (!held(account, table.name(), column, privilege)) {
                lacking.add(column);
            }
        }
        if (columns.isEmpty() || !lacking.isEmpty()) {
            missing.add(new Missing(privilege, account.grantee(), table.name() + (lacking.isEmpty() ? ""
                    : " (columns " + String.join(", ", lacking) + ")"), neededFor));
        }
    }

    private boolean held(Account account, TableName table, String column, String privilege)
            throws SQLException {
        return held(account, table.schema(), table.table(), column, privilege);
    }

    /** Whether a grant covers the privilege: global, on the database, on the table, or on the column. */
    private boolean held(Account account, String schema, String table, String column, String privilege)
            throws SQLException {
        for (String[] g : grants(account, schema)) {
            if (g[0].equalsIgnoreCase(privilege) && (g[1] == null || g[1].equals(table))
                    && (g[2] == null || g[2].equalsIgnoreCase(column))) {
                return true;
            }
        }
        return false;
    }

    private List<String[]> grants(Account account, String schema) throws SQLException {
        String key = account.grantee() + "/" + schema;
        List<String[]> rows = grants.get(key);
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
            grants.put(key, rows);
        }
        return rows;
    }
}
