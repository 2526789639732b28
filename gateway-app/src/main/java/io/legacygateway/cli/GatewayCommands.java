package io.legacygateway.cli;

import io.legacygateway.capture.TriggersCommand;
import io.legacygateway.deadletter.DeadLettersCommand;
import io.legacygateway.reconciliation.ReconcileCommand;
import io.legacygateway.relay.RelayExplainCommand;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The commands of the product jar, in the order {@code help} lists them: the one place a command is added (the demo jar
 * adds its own, {@link GatewayJar#commands()}). Known without starting anything, so that {@code help} and the choice of
 * a command never start Spring.
 *
 * <ul>
 *   <li>{@link #remote remote}: talks to a running gateway over REST ({@link GatewayApiClient}); runs in a plain JVM,
 *       without Spring, datasource, broker or Camel, and so needs no database password;</li>
 *   <li>{@link #plain plain}: needs nothing but its arguments (the DDL that ships in the jar); a plain JVM too;</li>
 *   <li>{@link #configured configured}: works on the configured databases or broker itself; runs as a bean of a Spring
 *       context built from the gateway's configuration, without web server or routes ({@link GatewayCli}).</li>
 * </ul>
 */
public final class GatewayCommands {

    /**
     * A command word, its line in {@code help}, and its {@link GatewayCommand}: made without a context ({@code withoutContext}), or the bean of
     * type {@code bean} in the command context (exactly one of the two is set; {@code talksToGateway} for a command that
     * calls a running gateway).
     */
    public record Entry(String name, String summary, Supplier<GatewayCommand> withoutContext, boolean talksToGateway,
                        Class<? extends GatewayCommand> bean) {

        public boolean needsConfiguration() {
            return withoutContext == null;
        }
    }

    private static final List<Entry> ALL = List.of(
            remote("relay", "relays and their FAILED rows on a running gateway: list | failed <relay> | retry <relay>",
                    RelayCommand::new),
            configured("relay explain", "a relay's statements and the database's plans for them: relay explain"
                    + " <relay> [--routes=PATTERN]; exit 1 when the claim reads no index of waiting rows only",
                    RelayExplainCommand.class),
            remote("dlq", "dead letters on a running gateway: list | show | redeliver", DeadLettersCommand::new),
            remote("reconcile", "reconciliation report of a running gateway: [relay] [--all] [--intent-id=ID] [--json];"
                    + " exit 1 on findings", ReconcileCommand::new),
            plain("ddl", "print the gateway's tables as SQL: ddl <dialect> [outbox|relay|inbox|operations]",
                    DdlCommand::new),
            configured("triggers", "capture a table's changes into the outbox with triggers: --table=T"
                    + " --dry-run|--install [--snapshot] [--definer=ACCOUNT]|--remove", TriggersCommand.class));

    private GatewayCommands() {
    }

    /** A command that needs nothing but its arguments and the environment (no Spring context). */
    public static Entry remote(String name, String summary, Supplier<GatewayCommand> command) {
        return new Entry(name, summary, command, true, null);
    }

    /** A command that needs nothing but its arguments (no Spring context, no gateway). */
    public static Entry plain(String name, String summary, Supplier<GatewayCommand> command) {
        return new Entry(name, summary, command, false, null);
    }

    /** A command that is a bean of the command context (the gateway's configuration, no web server, no routes). */
    public static Entry configured(String name, String summary, Class<? extends GatewayCommand> bean) {
        return new Entry(name, summary, null, false, bean);
    }

    /** The product jar's commands. */
    public static List<Entry> all() {
        return ALL;
    }

    /**
     * The command of {@code commands} the arguments name: a two-word command ({@code relay explain}) before the
     * one-word command of its first word.
     */
    public static Optional<Entry> named(List<Entry> commands, List<String> words) {
        if (words.size() > 1) {
            Optional<Entry> two = named(commands, words.get(0) + " " + words.get(1));
            if (two.isPresent()) {
                return two;
            }
        }
        return named(commands, words.get(0));
    }

    private static Optional<Entry> named(List<Entry> commands, String name) {
        return commands.stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
