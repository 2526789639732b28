package io.legacygateway.capture;

import io.legacygateway.adapters.capture.CaptureGrants;
import io.legacygateway.adapters.capture.CaptureTriggers.Operation;
import io.legacygateway.adapters.capture.CaptureTriggers;
import io.legacygateway.adapters.capture.NotifyTrigger;
import io.legacygateway.capture.TriggerInstallation.Action;
import io.legacygateway.capture.TriggerInstallation.Capture;
import io.legacygateway.command.CommandBeans;
import io.legacygateway.command.ConfiguredCommand;
import io.legacygateway.config.GatewayDataSources;
import java.io.PrintStream;
import java.util.Set;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar gateway-app.jar triggers --data-source=X --table=orders [--event-type-prefix=Order]
 * [--aggregate-type=Order] [--operations=INSERT,UPDATE,DELETE] [--outbox-table=outbox] [--definer=account]
 * [--snapshot] [--notify] --dry-run|--install|--remove}: captures a business table's changes into the gateway's outbox
 * with triggers, for applications that cannot write an outbox themselves ({@link CaptureTriggers}). {@code --dry-run}
 * prints the DDL and the privileges it lacks, and changes nothing; {@code --install} and {@code --remove} run it in one
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
@Command(name = "triggers", description = {"capture a table's changes into the outbox with triggers: --table=T"
        + " --dry-run|--install|--remove",
        "Run it as a user allowed to create triggers (and functions on PostgreSQL), not as the gateway's runtime"
        + " user. Exit 1 when it is refused (a missing privilege, a table without primary key)."})
public class TriggersCommand implements ConfiguredCommand {

    @Spec
    CommandSpec spec;

    @ArgGroup(multiplicity = "1")
    Mode mode;

    @Option(names = "--data-source", paramLabel = "NAME", description = "the datasource under gateway.datasources"
            + " (default: the only one)")
    String dataSource;

    @Option(names = "--table", paramLabel = "TABLE", description = "the table whose changes to capture")
    String table;

    @Option(names = "--event-type-prefix", paramLabel = "PREFIX", description = "event types <prefix>Inserted,"
            + " Updated, Deleted (default: <table>.)")
    String eventTypePrefix;

    @Option(names = "--aggregate-type", paramLabel = "TYPE", description = "the outbox rows' aggregate type"
            + " (default: <table>)")
    String aggregateType;

    @Option(names = "--operations", paramLabel = "OP", split = "\\s*,\\s*", splitSynopsisLabel = ",",
            defaultValue = "INSERT,UPDATE,DELETE", description = "the writes to capture (default: ${DEFAULT-VALUE})")
    Set<Operation> operations;

    @Option(names = "--outbox-table", paramLabel = "TABLE", defaultValue = "outbox", description = "the outbox, with"
            + " the default columns (default: ${DEFAULT-VALUE})")
    String outboxTable;

    @Option(names = "--definer", paramLabel = "ACCOUNT", description = "the account the triggers run as (default: the"
            + " installer; MariaDB user@host, PostgreSQL role)")
    String definer;

    @Option(names = "--snapshot", description = "with --install: also one <prefix>Snapshot row per existing row")
    boolean snapshot;

    @Option(names = "--notify", description = "PostgreSQL: also the outbox's wake-up trigger (pg_notify on channel"
            + " gw_outbox_<outbox table>) for relays with wakeUp NOTIFY; without --table only that trigger")
    boolean notify;

    /** What to do with the DDL: exactly one. */
    static final class Mode {

        @Option(names = "--dry-run", required = true, description = "print the DDL and the missing privileges,"
                + " change nothing")
        boolean dryRun;

        @Option(names = "--install", required = true, description = "install the capture")
        boolean install;

        @Option(names = "--remove", required = true, description = "remove it")
        boolean remove;

        Action action() {
            return dryRun ? Action.DRY_RUN : install ? Action.INSTALL : Action.REMOVE;
        }
    }

    @Override
    public void checkUsage() {
        if (table == null && !notify) {
            throw new ParameterException(spec.commandLine(), "--table (or --notify) is required");
        }
        if (snapshot && table == null) {
            throw new ParameterException(spec.commandLine(), "--snapshot needs --table");
        }
        if (snapshot && mode.remove) {
            throw new ParameterException(spec.commandLine(), "--snapshot goes with --install or --dry-run");
        }
    }

    @Override
    public int run(CommandBeans beans, PrintStream out) throws Exception {
        GatewayDataSources dataSources = beans.get(GatewayDataSources.class);
        String name = dataSource;
        if (name == null) {
            if (dataSources.names().size() != 1) {
                throw new ParameterException(spec.commandLine(), "--data-source is required when"
                        + " gateway.datasources has " + dataSources.names());
            }
            name = dataSources.names().iterator().next();
        }
        TriggerInstallation installation;
        try {
            installation = new TriggerInstallation(dataSources.get(name, "--data-source"),
                    dataSources.dialect(name), out);
        } catch (IllegalArgumentException e) {
            out.println("error: " + e.getMessage());
            return 1;
        }
        return installation.run(mode.action(), new Capture(table, eventTypePrefix, aggregateType, operations,
                outboxTable, definer, snapshot, notify));
    }
}
