package io.legacygateway.capture;

import io.legacygateway.adapters.capture.CaptureTriggers;
import io.legacygateway.adapters.capture.CaptureTriggers.Operation;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.cli.GatewayCommand;
import io.legacygateway.config.GatewayDataSources;
import java.io.PrintStream;
import java.sql.Connection;
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
 * [--aggregate-type=Order] [--operations=INSERT,UPDATE,DELETE] [--outbox-table=outbox] --dry-run|--install|--remove}:
 * captures a business table's changes into the gateway's outbox with triggers, for applications that cannot write an
 * outbox themselves ({@link CaptureTriggers}). {@code --dry-run} prints the DDL and changes nothing; {@code --install}
 * and {@code --remove} run it in one transaction (where the database has transactional DDL). Run it as a user allowed
 * to create triggers (and functions on PostgreSQL), not as the gateway's runtime user.
 */
public class TriggersCommand implements GatewayCommand {

    static final Set<String> OPTIONS = Set.of("data-source", "table", "event-type-prefix", "aggregate-type",
            "operations", "outbox-table");
    static final Set<String> ACTIONS = Set.of("dry-run", "install", "remove");

    private final GatewayDataSources dataSources;

    public TriggersCommand(GatewayDataSources dataSources) {
        this.dataSources = dataSources;
    }

    private static String usage() {
        return """
                usage: triggers --table=<table> --dry-run|--install|--remove
                         [--data-source=<name>]            datasource under gateway.datasources (default: the only one)
                         [--event-type-prefix=<prefix>]    event types <prefix>Inserted/Updated/Deleted (default <table>.)
                         [--aggregate-type=<type>]         aggregate type of the outbox rows (default <table>)
                         [--operations=INSERT,UPDATE,DELETE]
                         [--outbox-table=<table>]          outbox with the default columns (default outbox)""";
    }

    @Override
    public int run(List<String> args, PrintStream out) throws SQLException {
        Map<String, String> options = new LinkedHashMap<>();
        String action = null;
        for (String a : args) {
            String arg = a.startsWith("--") ? a.substring(2) : a;
            int eq = arg.indexOf('=');
            String key = eq < 0 ? arg : arg.substring(0, eq);
            if (eq < 0 && ACTIONS.contains(key)) {
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
        if (action == null || !options.containsKey("table")) {
            return usageError(out, action == null ? "choose one of --dry-run, --install, --remove" : "--table is required");
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
            table = TableInspector.inspect(ds, dialect, TableName.parse("--table", options.get("table")), "--table");
            outbox = TableInspector.inspect(ds, dialect,
                    TableName.parse("--outbox-table", options.getOrDefault("outbox-table", "outbox")), "--outbox-table");
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
        String name = table.name().table();
        CaptureTriggers.Ddl ddl;
        try {
            ddl = CaptureTriggers.generate(dialect, table, outbox, new CaptureTriggers.Options(
                    options.getOrDefault("event-type-prefix", name + "."), options.getOrDefault("aggregate-type", name),
                    operations));
        } catch (IllegalArgumentException refused) {
            out.println("refused: " + refused.getMessage());
            return 1;
        }
        List<String> statements = action.equals("remove") ? ddl.remove() : ddl.install();
        String untested = dialect.testedHere() ? "" : " (" + dialect.id() + ": NOT TESTED by this project)";
        if (action.equals("dry-run")) {
            out.println("-- capture of " + table.name() + " into " + outbox.name() + " on " + dialect.id() + untested
                    + "; nothing was changed. Install with --install, remove with --remove. Statements:");
            statements.forEach(s -> out.println(s + "\n"));
            out.println("-- to remove:");
            ddl.remove().forEach(s -> out.println(s + "\n"));
            return 0;
        }
        execute(ds, statements);
        out.println((action.equals("install") ? "Installed" : "Removed") + " the capture of " + table.name() + " ("
                + statements.size() + " statements" + untested + ")" + (action.equals("install")
                ? ": every committed " + operations + " now writes one row into " + outbox.name() : ""));
        return 0;
    }

    private static void execute(DataSource ds, List<String> statements) throws SQLException {
        try (Connection c = ds.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                for (String sql : statements) {
                    s.execute(sql);
                }
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
        }
    }

    private static int usageError(PrintStream out, String problem) {
        out.println("error: " + problem);
        out.println(usage());
        return 2;
    }
}
