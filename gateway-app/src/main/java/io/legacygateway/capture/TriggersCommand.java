package io.legacygateway.capture;

import io.legacygateway.adapters.capture.CaptureGrants;
import io.legacygateway.adapters.capture.CaptureTriggers;
import io.legacygateway.adapters.capture.CaptureTriggers.Account;
import io.legacygateway.adapters.capture.CaptureTriggers.Operation;
import io.legacygateway.adapters.capture.NotifyTrigger;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.cli.GatewayCommand;
import io.legacygateway.config.GatewayDataSources;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/**
 * {@code java -jar gateway-app.jar triggers --data-source=X --table=orders [--event-type-prefix=Order]
 * [--aggregate-type=Order] [--operations=INSERT,UPDATE,DELETE] [--outbox-table=outbox] [--definer=account]
 * [--snapshot] [--notify] --dry-run|--install|--remove}: captures a business table's changes into the gateway's outbox with
 * triggers, for applications that cannot write an outbox themselves ({@link CaptureTriggers}). {@code --dry-run} prints
 * the DDL and the privileges it lacks, and changes nothing; {@code --install} and {@code --remove} run it in one
 * transaction (where the database has transactional DDL). Run it as a user allowed to create triggers (and functions
 * on PostgreSQL), not as the gateway's runtime user.
 *
 * <p>Before installing, the privileges the triggers need at every write of the application are checked for the
 * account they run as ({@link CaptureGrants}); when one is missing the install is refused naming it, and nothing is
 * changed. {@code --snapshot} also writes one {@code <prefix>Snapshot} row per row already in the table, so that no
 * change is missed or doubled: on PostgreSQL in the installing transaction (CREATE TRIGGER's lock makes writers wait
 * until it commits); on MariaDB, whose DDL commits by itself, with the table and the outbox write-locked from before
 * the first trigger until the snapshot is committed. Not offered on H2, Oracle and SQL Server.
 *
 * <p>{@code --notify} (PostgreSQL) also installs, or removes, the outbox's wake-up trigger ({@link NotifyTrigger}) for
 * relays with {@code wakeUp: NOTIFY}; without {@code --table} it handles only that trigger, on {@code --outbox-table}
 * (a legacy outbox the application fills itself).
 */
public class TriggersCommand implements GatewayCommand {

    static final Set<String> OPTIONS = Set.of("data-source", "table", "event-type-prefix", "aggregate-type",
            "operations", "outbox-table", "definer");
    static final Set<String> ACTIONS = Set.of("dry-run", "install", "remove");
    static final String SNAPSHOT = "snapshot";
    static final String NOTIFY = "notify";

    private final GatewayDataSources dataSources;

    public TriggersCommand(GatewayDataSources dataSources) {
        this.dataSources = dataSources;
    }

    private static String usage() {
        return """
                usage: triggers --table=<table>|--notify --dry-run|--install|--remove
                         [--data-source=<name>]            datasource under gateway.datasources (default: the only one)
                         [--event-type-prefix=<prefix>]    event types <prefix>Inserted/Updated/Deleted (default <table>.)
                         [--aggregate-type=<type>]         aggregate type of the outbox rows (default <table>)
                         [--operations=INSERT,UPDATE,DELETE]
                         [--outbox-table=<table>]          outbox with the default columns (default outbox)
                         [--definer=<account>]             account the triggers run as (default: the installer;
                                                           MariaDB user@host, PostgreSQL role)
                         [--snapshot]                      with --install: one <prefix>Snapshot row per existing row
                         [--notify]                        PostgreSQL: also the outbox's wake-up trigger (pg_notify on
                                                           channel gw_outbox_<outbox table>) for relays with wakeUp
                                                           NOTIFY; without --table only that trigger""";
    }

    @Override
    public int run(List<String> args, PrintStream out) throws SQLException {
        Map<String, String> options = new LinkedHashMap<>();
        String action = null;
        boolean snapshot = false;
        boolean notify = false;
        for (String a : args) {
            String arg = a.startsWith("--") ? a.substring(2) : a;
            int eq = arg.indexOf('=');
            String key = eq < 0 ? arg : arg.substring(0, eq);
            if (eq < 0 && key.equals(SNAPSHOT)) {
                snapshot = true;
            } else if (eq < 0 && key.equals(NOTIFY)) {
                notify = true;
            } else if (eq < 0 && ACTIONS.contains(key)) {
                if (action != null) {
                    return usageError(out, "choose one of --dry-run, --install, --remove");
                }
                action = key;
            } else if (eq > 0 && OPTIONS.contains(key)) {
                options.put(key, arg.substring(eq + 1));
            } else {
                return usageError(out, "unknown argument '" + a + "'");
            }
        }
        boolean capture = options.containsKey("table");
        if (action == null || !capture && !notify) {
            return usageError(out, action == null ? "choose one of --dry-run, --install, --remove" : "--table (or --notify) is required");
        }
        if (snapshot && !capture) {
            return usageError(out, "--snapshot needs --table");
        }
        if (snapshot && action.equals("remove")) {
            return usageError(out, "--snapshot goes with --install or --dry-run");
        }
        String dataSource = options.get("data-source");
        if (dataSource == null) {
            if (dataSources.names().size() != 1) {
                return usageError(out, "--data-source is required when gateway.datasources has " + dataSources.names());
            }
            dataSource = dataSources.names().iterator().next();
        }
        DataSource ds;
        Dialect dialect;
        TableInspector.Table table;
        TableInspector.Table outbox;
        try {
            ds = dataSources.get(dataSource, "--data-source");
            dialect = dataSources.dialect(dataSource);
            table = capture ? inspect(ds, dialect, "--table", options.get("table")) : null;
            outbox = inspect(ds, dialect, "--outbox-table", options.getOrDefault("outbox-table", "outbox"));
        } catch (IllegalArgumentException e) {
            out.println("error: " + e.getMessage());
            return 1;
        }
        Set<Operation> operations = EnumSet.noneOf(Operation.class);
        for (String op : options.getOrDefault("operations", "INSERT,UPDATE,DELETE").split(",")) {
            try {
                operations.add(Operation.valueOf(op.strip().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                return usageError(out, "--operations: '" + op + "' is not one of INSERT, UPDATE, DELETE");
            }
        }
        if (!capture) {
            return notifyOnly(out, action, ds, dialect, outbox);
        }
        String name = table.name().table();
        CaptureTriggers.Ddl ddl;
        Account definer;
        try {
            definer = options.containsKey("definer") ? Account.parse(options.get("definer")) : null;
            ddl = CaptureTriggers.generate(dialect, table, outbox, new CaptureTriggers.Options(
                    options.getOrDefault("event-type-prefix", name + "."), options.getOrDefault("aggregate-type", name),
                    operations, definer));
            if (notify) {
                ddl = withNotify(ddl, NotifyTrigger.generate(dialect, outbox.name()));
            }
        } catch (IllegalArgumentException refused) {
            out.println("refused: " + refused.getMessage());
            return 1;
        }
        if (snapshot && ddl.snapshot() == null) {
            out.println("refused: --snapshot is not offered on " + dialect.id() + " (no way here to keep writers out"
                    + " between the triggers and the snapshot)");
            return 1;
        }
        List<String> statements = action.equals("remove") ? ddl.remove() : ddl.install();
        String untested = dialect.testedHere() ? "" : " (" + dialect.id() + ": NOT TESTED by this project)";
        try (Connection c = ds.getConnection()) {
            if (action.equals("remove")) {
                execute(c, ddl, statements, false);
                out.println("Removed the capture of " + table.name() + " (" + statements.size() + " statements"
                        + untested + ")");
                return 0;
            }
            List<CaptureGrants.Missing> missing = CaptureGrants.check(c, dialect, table, outbox, definer, snapshot);
            Account runsAs = !CaptureGrants.checked(dialect) ? null
                    : definer != null ? definer : CaptureGrants.currentAccount(c, dialect);
            if (action.equals("dry-run")) {
                out.println("-- capture of " + table.name() + " into " + outbox.name() + " on " + dialect.id()
                        + untested + "; nothing was changed. Install with --install, remove with --remove.");
                out.println(privileges(dialect, runsAs, missing).replaceAll("(?m)^", "-- "));
                out.println("-- Statements:");
                statements.forEach(s -> out.println(s + "\n"));
                if (snapshot) {
                    out.println("-- snapshot (binds " + ddl.snapshot().binds() + "):");
                    out.println(ddl.snapshot().sql() + "\n");
                }
                out.println("-- to remove:");
                ddl.remove().forEach(s -> out.println(s + "\n"));
                return 0;
            }
            if (!missing.isEmpty()) {
                out.println("refused: nothing was installed. " + privileges(dialect, runsAs, missing));
                return 1;
            }
            int snapshotRows = execute(c, ddl, statements, snapshot);
            out.println("Installed the capture of " + table.name() + " (" + statements.size() + " statements"
                    + untested + "): every committed " + operations + " now writes one row into " + outbox.name()
                    + (runsAs == null ? "" : ", as " + runsAs)
                    + (notify ? "; inserts into " + outbox.name() + " notify channel "
                    + NotifyTrigger.channel("--outbox-table", outbox.name()) : "")
                    + (snapshot ? "; snapshot: " + snapshotRows + " existing rows written as "
                    + ddl.snapshot().binds().get(1) : ""));
            return 0;
        }
    }

    /** The capture's statements followed by the wake-up trigger's (installed and removed with it). */
    private static CaptureTriggers.Ddl withNotify(CaptureTriggers.Ddl ddl, CaptureTriggers.Ddl notify) {
        List<String> install = new java.util.ArrayList<>(ddl.install());
        install.addAll(notify.install());
        List<String> remove = new java.util.ArrayList<>(ddl.remove());
        remove.addAll(notify.remove());
        return new CaptureTriggers.Ddl(install, remove, ddl.snapshot(), ddl.lock(), ddl.unlock());
    }

    /** {@code --notify} without {@code --table}: only the wake-up trigger of the outbox. */
    private static int notifyOnly(PrintStream out, String action, DataSource ds, Dialect dialect,
                                  TableInspector.Table outbox) throws SQLException {
        CaptureTriggers.Ddl ddl;
        try {
            ddl = NotifyTrigger.generate(dialect, outbox.name());
        } catch (IllegalArgumentException refused) {
            out.println("refused: " + refused.getMessage());
            return 1;
        }
        String channel = NotifyTrigger.channel("--outbox-table", outbox.name());
        if (action.equals("dry-run")) {
            out.println("-- wake-up of " + outbox.name() + " on channel " + channel + " (" + dialect.id()
                    + "); nothing was changed. Install with --install, remove with --remove.");
            out.println("-- Statements:");
            ddl.install().forEach(s -> out.println(s + "\n"));
            out.println("-- to remove:");
            ddl.remove().forEach(s -> out.println(s + "\n"));
            return 0;
        }
        List<String> statements = action.equals("remove") ? ddl.remove() : ddl.install();
        try (Connection c = ds.getConnection()) {
            execute(c, ddl, statements, false);
        }
        out.println(action.equals("remove") ? "Removed the wake-up trigger of " + outbox.name()
                : "Installed the wake-up trigger of " + outbox.name() + ": every committed insert notifies channel "
                + channel + " (relays with wakeUp: NOTIFY on this table listen on it)");
        return 0;
    }

    /**
     * The table as stored, qualified with its schema where the dialect can tell it (the PostgreSQL function names
     * every object by its schema). A table that is not found where the metadata hides tables without privilege
     * (MariaDB) may exist: the error says it may be invisible to the user, and names the user.
     */
    private static TableInspector.Table inspect(DataSource ds, Dialect dialect, String option, String value) {
        TableName configured = TableName.parse(option, value);
        try (Connection c = ds.getConnection()) {
            TableInspector.Table table;
            try {
                table = TableInspector.inspect(ds, dialect, configured, option);
            } catch (IllegalArgumentException e) {
                if (!e.getMessage().contains("does not exist") || !CaptureGrants.hidesTablesWithoutPrivilege(dialect)) {
                    throw e;
                }
                throw new IllegalArgumentException(e.getMessage() + " or is not visible to user "
                        + CaptureGrants.currentAccount(c, dialect) + " (a user sees only the tables it holds a"
                        + " privilege on; see the README's grants for trigger capture)", e);
            }
            return CaptureGrants.qualified(c, dialect, table);
        } catch (SQLException e) {
            throw new IllegalStateException(option + ": cannot read table '" + configured + "': " + e.getMessage(), e);
        }
    }

    private static String privileges(Dialect dialect, Account runsAs, List<CaptureGrants.Missing> missing) {
        if (!CaptureGrants.checked(dialect)) {
            return "privileges are not checked on " + dialect.id();
        }
        if (missing.isEmpty()) {
            return "privileges: the installer and " + runsAs + " (the account the triggers run as) hold every"
                    + " privilege the capture needs";
        }
        StringBuilder text = new StringBuilder("Missing privileges (grant them, then install again):");
        missing.forEach(m -> text.append("\n  ").append(m.message()));
        return text.toString();
    }

    /**
     * Runs the statements, and with {@code snapshot} the initial load, in one transaction; where DDL commits by
     * itself ({@link CaptureTriggers.Ddl#lock()}) the snapshot runs inside the lock, and a failed install removes
     * what it had already created (its first statements had already dropped an earlier capture).
     *
     * @return the number of snapshot rows written
     */
    private static int execute(Connection c, CaptureTriggers.Ddl ddl, List<String> statements, boolean snapshot)
            throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        boolean installing = statements.equals(ddl.install());
        boolean locked = false;
        boolean changed = false;
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            try {
                if (snapshot && ddl.lock() != null) {
                    s.execute(ddl.lock());
                    locked = true;
                }
                for (String sql : statements) {
                    changed = true;
                    s.execute(sql);
                }
                int rows = snapshot ? snapshot(c, ddl.snapshot()) : 0;
                c.commit();
                return rows;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                if (ddl.lock() != null && installing && changed) {
                    try {
                        for (String sql : ddl.remove()) {
                            s.execute(sql);
                        }
                    } catch (SQLException cleanup) {
                        e.addSuppressed(cleanup);
                    }
                }
                throw e;
            } finally {
                if (locked) {
                    s.execute(ddl.unlock());
                }
            }
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private static int snapshot(Connection c, CaptureTriggers.Snapshot snapshot) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(snapshot.sql())) {
            for (int i = 0; i < snapshot.binds().size(); i++) {
                ps.setString(i + 1, snapshot.binds().get(i));
            }
            return ps.executeUpdate();
        }
    }

    private static int usageError(PrintStream out, String problem) {
        out.println("error: " + problem);
        out.println(usage());
        return 2;
    }
}
