package io.legacygateway.capture;

import io.legacygateway.adapters.capture.CaptureGrants;
import io.legacygateway.adapters.capture.CaptureRouting;
import io.legacygateway.adapters.capture.CaptureTriggers;
import io.legacygateway.adapters.capture.CaptureTriggers.Account;
import io.legacygateway.adapters.capture.CaptureTriggers.Operation;
import io.legacygateway.adapters.capture.NotifyTrigger;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * One run of {@link TriggersCommand} on one database: reads the table and the outbox as stored, generates the capture's
 * DDL ({@link CaptureTriggers}, {@link NotifyTrigger}), and prints it ({@link Action#DRY_RUN}) or runs it in one
 * transaction. An install first checks the privileges the triggers need for the account they run as
 * ({@link CaptureGrants}) and changes nothing when one is missing. Prints what it did; returns the exit status (0 done,
 * 1 refused or a table that cannot be read).
 */
final class TriggerInstallation {

    /** What the run does with the DDL. */
    enum Action { DRY_RUN, INSTALL, REMOVE }

    /**
     * What to capture.
     *
     * @param table           the business table, {@code null} for the outbox's wake-up trigger only
     * @param eventTypePrefix event types {@code <prefix>Inserted/Updated/Deleted}; {@code null}: {@code <table>.}
     * @param aggregateType   the outbox rows' aggregate type; {@code null}: the table's name
     * @param operations      the writes to capture
     * @param outboxTable     the outbox, with the default columns
     * @param definer         the account the triggers run as, {@code null}: the installer
     * @param snapshot        also one {@code <prefix>Snapshot} row per row already in the table
     * @param wakeUp          also the outbox's wake-up trigger (PostgreSQL {@code --notify})
     */
    record Capture(String table, String eventTypePrefix, String aggregateType, Set<Operation> operations,
                   String outboxTable, String definer, boolean snapshot, boolean wakeUp) {
    }

    private final DataSource ds;
    private final Dialect dialect;
    private final PrintStream out;

    TriggerInstallation(DataSource ds, Dialect dialect, PrintStream out) {
        this.ds = ds;
        this.dialect = dialect;
        this.out = out;
    }

    int run(Action action, Capture capture) throws SQLException {
        TableInspector.Table table;
        TableInspector.Table outbox;
        try {
            table = capture.table() != null ? inspect(ds, dialect, "--table", capture.table()) : null;
            outbox = inspect(ds, dialect, "--outbox-table", capture.outboxTable());
        } catch (IllegalArgumentException e) {
            out.println("error: " + e.getMessage());
            return 1;
        }
        if (table == null) {
            return notifyOnly(action, outbox);
        }
        CaptureRouting routing;
        try (Connection c = ds.getConnection()) {
            routing = CaptureRouting.of(c, dialect, table.name(), capture.operations());
        }
        if (action != Action.REMOVE && !routing.refusals().isEmpty()) {
            // a write a rule sends out of the capture would leave no outbox row: never install such a capture
            out.println("refused: nothing was installed. " + String.join("\n", routing.refusals()));
            return 1;
        }
        Account definer;
        CaptureTriggers.Ddl ddl;
        try {
            definer = capture.definer() != null ? Account.parse(capture.definer()) : null;
            ddl = ddl(capture, table, outbox, definer, routing);
        } catch (IllegalArgumentException refused) {
            out.println("refused: " + refused.getMessage());
            return 1;
        }
        if (capture.snapshot() && ddl.snapshot() == null) {
            out.println("refused: --snapshot is not offered on " + dialect.id() + " (no way here to keep writers out"
                    + " between the triggers and the snapshot)");
            return 1;
        }
        try (Connection c = ds.getConnection()) {
            if (action == Action.REMOVE) {
                execute(c, ddl, ddl.remove(), false);
                out.println("Removed the capture of " + table.name() + " (" + ddl.remove().size() + " statements"
                        + untested() + ")");
                return 0;
            }
            List<CaptureGrants.Missing> missing = CaptureGrants.check(c, dialect, table, outbox, definer,
                    capture.snapshot(), routing);
            Account runsAs = !CaptureGrants.checked(dialect) ? null
                    : definer != null ? definer : CaptureGrants.currentAccount(c, dialect);
            if (action == Action.DRY_RUN) {
                dryRun(capture, table, outbox, ddl, runsAs, missing, routing);
                return 0;
            }
            if (!missing.isEmpty()) {
                out.println("refused: nothing was installed. " + privileges(dialect, runsAs, missing));
                return 1;
            }
            int snapshotRows = execute(c, ddl, ddl.install(), capture.snapshot());
            out.println("Installed the capture of " + table.name() + covering(routing) + " ("
                    + ddl.install().size() + " statements" + untested() + "): every committed "
                    + capture.operations() + " now writes one row into "
                    + outbox.name() + (runsAs == null ? "" : ", as " + runsAs)
                    + (capture.wakeUp() ? "; inserts into " + outbox.name() + " notify channel "
                    + NotifyTrigger.channel("--outbox-table", outbox.name()) : "")
                    + (capture.snapshot() ? "; snapshot: " + snapshotRows + " existing rows written as "
                    + ddl.snapshot().binds().get(1) : ""));
            return 0;
        }
    }

    /** Where else the capture writes from: the inheritance children and partitions, for the output. */
    private static String covering(CaptureRouting routing) {
        return (routing.children().isEmpty() ? "" : " and of its inheritance children " + routing.children())
                + (routing.partitions().isEmpty() ? "" : " and its partitions " + routing.partitions()
                + " (PostgreSQL gives the trigger to partitions attached later; a child created later by"
                + " inheritance needs triggers --install again)")
                + (!routing.children().isEmpty() && routing.partitions().isEmpty() ? " (a child created later"
                + " needs triggers --install again)" : "");
    }

    /** The capture's DDL, with the wake-up trigger's when asked; refusals as {@link IllegalArgumentException}. */
    private CaptureTriggers.Ddl ddl(Capture capture, TableInspector.Table table, TableInspector.Table outbox,
                                    Account definer, CaptureRouting routing) {
        String name = table.name().table();
        CaptureTriggers.Ddl ddl = CaptureTriggers.generate(dialect, table, outbox, new CaptureTriggers.Options(
                capture.eventTypePrefix() != null ? capture.eventTypePrefix() : name + ".",
                capture.aggregateType() != null ? capture.aggregateType() : name, capture.operations(), definer,
                routing.children()));
        return capture.wakeUp() ? withNotify(ddl, NotifyTrigger.generate(dialect, outbox.name())) : ddl;
    }

    /** {@code --dry-run}: the privileges, the statements, the snapshot and how to remove it; changes nothing. */
    private void dryRun(Capture capture, TableInspector.Table table, TableInspector.Table outbox,
                        CaptureTriggers.Ddl ddl, Account runsAs, List<CaptureGrants.Missing> missing,
                        CaptureRouting routing) {
        out.println("-- capture of " + table.name() + covering(routing) + " into " + outbox.name() + " on "
                + dialect.id()
                + untested() + "; nothing was changed. Install with --install, remove with --remove.");
        out.println(privileges(dialect, runsAs, missing).replaceAll("(?m)^", "-- "));
        out.println("-- Statements:");
        ddl.install().forEach(s -> out.println(s + "\n"));
        if (capture.snapshot()) {
            out.println("-- snapshot (binds " + ddl.snapshot().binds() + "):");
            out.println(ddl.snapshot().sql() + "\n");
        }
        out.println("-- to remove:");
        ddl.remove().forEach(s -> out.println(s + "\n"));
    }

    private String untested() {
        return dialect.testedHere() ? "" : " (" + dialect.id() + ": NOT TESTED by this project)";
    }

    /** The capture's statements followed by the wake-up trigger's (installed and removed with it). */
    private static CaptureTriggers.Ddl withNotify(CaptureTriggers.Ddl ddl, CaptureTriggers.Ddl notify) {
        List<String> install = new ArrayList<>(ddl.install());
        install.addAll(notify.install());
        List<String> remove = new ArrayList<>(ddl.remove());
        remove.addAll(notify.remove());
        return new CaptureTriggers.Ddl(install, remove, ddl.snapshot(), ddl.lock(), ddl.unlock());
    }

    /** {@code --notify} without {@code --table}: only the wake-up trigger of the outbox. */
    private int notifyOnly(Action action, TableInspector.Table outbox) throws SQLException {
        CaptureTriggers.Ddl ddl;
        try {
            ddl = NotifyTrigger.generate(dialect, outbox.name());
        } catch (IllegalArgumentException refused) {
            out.println("refused: " + refused.getMessage());
            return 1;
        }
        String channel = NotifyTrigger.channel("--outbox-table", outbox.name());
        if (action == Action.DRY_RUN) {
            out.println("-- wake-up of " + outbox.name() + " on channel " + channel + " (" + dialect.id()
                    + "); nothing was changed. Install with --install, remove with --remove.");
            out.println("-- Statements:");
            ddl.install().forEach(s -> out.println(s + "\n"));
            out.println("-- to remove:");
            ddl.remove().forEach(s -> out.println(s + "\n"));
            return 0;
        }
        List<String> statements = action == Action.REMOVE ? ddl.remove() : ddl.install();
        try (Connection c = ds.getConnection()) {
            execute(c, ddl, statements, false);
        }
        out.println(action == Action.REMOVE ? "Removed the wake-up trigger of " + outbox.name()
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
                if (!e.getMessage().contains("does not exist") || !CaptureGrants.hidesTablesWithoutPrivilege(dialect)
                        || e.getMessage().contains("is not visible to user")) {
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
}
