package io.legacygateway.cli;

import io.legacygateway.capture.TriggersCommand;
import io.legacygateway.command.ConfiguredCommand;
import io.legacygateway.command.GatewayCommand;
import io.legacygateway.deadletter.DeadLettersCommand;
import io.legacygateway.reconciliation.ReconcileCommand;
import io.legacygateway.relay.RelayCommand;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The root of the gateway jar's commands, and the product jar's commands in the order {@code help} lists them: the one
 * place a command is added (the demo jar adds its own, {@link GatewayJar#commands()}). Each is a picocli
 * {@code @Command} class, a {@link GatewayCommand} or {@link ConfiguredCommand}, or a group of them
 * ({@code relay}, {@code dlq}); picocli reads them without instantiating them, so {@code help} and the choice of a
 * command start nothing.
 */
@Command(name = "gateway", usageHelpWidth = 100)
public final class GatewayCommands {

    /** {@code -h}/{@code --help} on every command, printing its own usage (inherited by the subcommands). */
    @Option(names = {"-h", "--help"}, usageHelp = true, scope = ScopeType.INHERIT,
            description = "print this command's usage and exit")
    boolean help;

    private static final List<Class<?>> PRODUCT = List.of(RelayCommand.class, DeadLettersCommand.class,
            ReconcileCommand.class, DdlCommand.class, TriggersCommand.class);

    /** The product jar's commands. */
    public static List<Class<?>> all() {
        return PRODUCT;
    }
}
