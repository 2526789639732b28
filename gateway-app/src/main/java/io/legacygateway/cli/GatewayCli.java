package io.legacygateway.cli;

import io.legacygateway.command.CommandBeans;
import io.legacygateway.command.ConfiguredCommand;
import io.legacygateway.command.GatewayApiOptions;
import io.legacygateway.command.GatewayCommand;
import io.legacygateway.config.CommandContext;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * Runs a command of a {@link GatewayJar}: {@code java -jar gateway-app.jar [--spring options] <command> [args]}.
 * Arguments starting with {@code --} before the command word are Spring options (for example
 * {@code --spring.profiles.active=prod}); a configured command's context reads them, any other command ignores them.
 * The rest is parsed by picocli into the command the words name ({@link GatewayCommands}); the command is chosen from
 * the arguments alone: {@code help}, {@code --help}, {@code -h} and an unknown word print the list and start nothing
 * (exit 0, unknown: 2), {@code <command> --help} prints that command's usage (exit 0), bad usage prints the problem and
 * the usage (exit 2), and only a {@link ConfiguredCommand} starts a Spring context.
 */
public final class GatewayCli {

    private GatewayCli() {
    }

    /** Set in a command's context: scheduled jobs (metrics sampler, retention) do not start there. */
    static final String COMMAND_PROPERTY = CommandContext.PROPERTY;

    private static final Set<String> HELP = Set.of("help", "--help", "-h");

    /** Runs a configured command with the beans of a context that the caller opens and closes around it. */
    private interface Configuration {
        int run(ConfiguredCommand command) throws Exception;
    }

    /** Whether this Spring context runs a command rather than the gateway. */
    public static boolean isCommandContext(Environment environment) {
        return environment.getProperty(COMMAND_PROPERTY, Boolean.class, false);
    }

    /** True when the process was started as a command (or for help) rather than as the gateway. */
    public static boolean isCommand(String[] args) {
        return Arrays.stream(args).anyMatch(a -> !a.startsWith("--") || HELP.contains(a));
    }

    /** Runs the command of {@code jar} that {@code args} name and returns the process exit status. */
    public static int run(GatewayJar jar, String[] args) {
        List<String> spring = new ArrayList<>();
        List<String> command = new ArrayList<>();
        for (String a : args) {
            (command.isEmpty() && a.startsWith("--") && !HELP.contains(a) ? spring : command).add(a);
        }
        CommandLine root = commandLine(jar);
        String word = command.get(0);
        if (HELP.contains(word)) {
            return help(jar, root, command.subList(1, command.size()));
        }
        if (!root.getSubcommands().containsKey(word)) {
            System.err.println("Unknown command '" + word + "'.");
            list(jar, root, System.err);
            return 2;
        }
        try {
            return execute(root, command, System.out, configured -> {
                try (ConfigurableApplicationContext context = commandContext(jar, spring)) {
                    return configured.run(CommandBeans.of(context), System.out);
                }
            });
        } catch (Exception e) {
            System.err.println("error: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Runs {@code command} (a picocli {@code @Command} object, with its subcommands) on {@code args} as the jar would,
     * in this JVM, with no configuration: for a {@link GatewayCommand} or a group of them.
     *
     * @return the exit status; an exception of the command is thrown, not printed
     */
    public static int execute(Object command, List<String> args, PrintStream out) throws Exception {
        return execute(command, args, CommandBeans.given(), out);
    }

    /**
     * Runs {@code command} on {@code args} as the jar would, in this JVM; a {@link ConfiguredCommand} runs with
     * {@code beans} (for example a test's context, {@link CommandBeans#of}).
     *
     * @return the exit status; an exception of the command is thrown, not printed
     */
    public static int execute(Object command, List<String> args, CommandBeans beans, PrintStream out)
            throws Exception {
        return execute(settings(new CommandLine(command)), args, out, configured -> configured.run(beans, out));
    }

    /**
     * Parses {@code args} into the commands of {@code line} and runs the one they end at. Usage problems (picocli's, a
     * command's {@link ConfiguredCommand#checkUsage()}, or one it finds while running) are printed to {@code out} with
     * that command's usage, exit 2.
     */
    private static int execute(CommandLine line, List<String> args, PrintStream out, Configuration configuration)
            throws Exception {
        try {
            List<CommandLine> parsed = line.parseArgs(args.toArray(String[]::new)).asCommandLineList();
            for (CommandLine c : parsed) {
                if (c.isUsageHelpRequested()) {
                    c.usage(out, Ansi.OFF);
                    return 0;
                }
            }
            CommandLine chosen = parsed.get(parsed.size() - 1);
            if (chosen.getCommand() instanceof GatewayCommand command) {
                return command.run(out);
            }
            if (chosen.getCommand() instanceof ConfiguredCommand command) {
                command.checkUsage();
                return configuration.run(command);
            }
            throw new ParameterException(chosen, "choose one of " + String.join(", ",
                    chosen.getSubcommands().keySet()));
        } catch (ParameterException e) {
            out.println("error: " + problem(e));
            e.getCommandLine().usage(out, Ansi.OFF);
            return 2;
        }
    }

    /** The problem in the words the commands used before picocli, where a script or a test may look for them. */
    private static String problem(ParameterException e) {
        if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            return "unknown argument '" + unmatched.getUnmatched().get(0) + "'";
        }
        String message = e.getMessage();
        return message.startsWith("Error: ") ? message.substring("Error: ".length()) : message;
    }

    /** The root command of {@code jar} with its commands. */
    static CommandLine commandLine(GatewayJar jar) {
        CommandLine root = new CommandLine(new GatewayCommands()).setCommandName("java -jar " + jar.fileName());
        jar.commands().forEach(root::addSubcommand);
        return settings(root);
    }

    /** How every command line of the jar parses (set on the whole tree, so after its subcommands were added). */
    private static CommandLine settings(CommandLine line) {
        // a value is never read from a file named by @ (a reason or filter may start with @); an option given twice
        // takes the last value, as the commands' own parsers did (a script may append to a fixed set of options)
        line.setExpandAtFiles(false).setOverwrittenOptionsAllowed(true).setCaseInsensitiveEnumValuesAllowed(true)
                .setUsageHelpWidth(100);
        inOrder(line);
        return line;
    }

    /** Usage lists options in the order the command declares them (related ones together), not sorted. */
    private static void inOrder(CommandLine line) {
        line.getCommandSpec().usageMessage().sortOptions(false).sortSynopsis(false);
        line.getSubcommands().values().forEach(GatewayCli::inOrder);
    }

    /**
     * {@code help}: the list of commands; {@code help <command...>}: that command's usage.
     */
    private static int help(GatewayJar jar, CommandLine root, List<String> words) {
        CommandLine command = root;
        for (String word : words) {
            command = command.getSubcommands().get(word);
            if (command == null) {
                System.err.println("Unknown command '" + String.join(" ", words) + "'.");
                list(jar, root, System.err);
                return 2;
            }
        }
        if (command == root) {
            list(jar, root, System.out);
        } else {
            command.usage(System.out, Ansi.OFF);
        }
        return 0;
    }

    /** The jar's commands, one line each: every command that runs, with the first line of its description. */
    static void list(GatewayJar jar, CommandLine root, PrintStream out) {
        out.println("Usage: java -jar " + jar.fileName() + " [--spring.option=value ...] [<command> [arguments]]");
        out.println("Without a command " + jar.withoutCommand() + ". Commands:");
        Map<String, CommandSpec> commands = commands(root);
        commands.forEach((name, spec) -> out.printf("  %-14s %s%n", name, summary(spec)));
        out.printf("  %-14s %s%n", "help", "this list (also --help, -h); help <command> or <command> --help: its"
                + " options");
        out.println(String.join(", ", remote(root)) + ": talk to a running gateway (--gateway=URL --user= --password=, or"
                + " GATEWAY_URL, GATEWAY_USER, GATEWAY_PASSWORD) and read no other configuration.");
        out.println("Exit status: 0 done, 1 a finding to act on or a failure, 2 bad usage or unknown command.");
    }

    /**
     * The commands that run, by their full names ({@code relay list}, {@code reconcile}), in the order they were added:
     * the commands without subcommands under {@code line}.
     */
    static Map<String, CommandSpec> commands(CommandLine line) {
        Map<String, CommandSpec> commands = new LinkedHashMap<>();
        line.getSubcommands().forEach((name, sub) -> {
            if (sub.getSubcommands().isEmpty()) {
                commands.put(name, sub.getCommandSpec());
            } else {
                commands(sub).forEach((subName, spec) -> commands.put(name + " " + subName, spec));
            }
        });
        return commands;
    }

    /** The commands that talk to a running gateway: a group's name when every command of the group does. */
    private static List<String> remote(CommandLine root) {
        List<String> remote = new ArrayList<>();
        root.getSubcommands().forEach((name, command) -> {
            Map<String, CommandSpec> leaves = commands(command);
            List<String> talking = leaves.isEmpty() ? (talksToGateway(command.getCommandSpec()) ? List.of(name)
                    : List.of()) : leaves.entrySet().stream().filter(e -> talksToGateway(e.getValue()))
                    .map(e -> name + " " + e.getKey()).toList();
            remote.addAll(!leaves.isEmpty() && talking.size() == leaves.size() ? List.of(name) : talking);
        });
        return remote;
    }

    private static boolean talksToGateway(CommandSpec command) {
        return command.mixins().values().stream().anyMatch(m -> m.userObject() instanceof GatewayApiOptions);
    }

    /** The first line of a command's description: its line in {@code help}. */
    static String summary(CommandSpec command) {
        String[] description = command.usageMessage().description();
        return description.length == 0 ? "" : description[0];
    }

    /**
     * The gateway's configuration without web server, routes or scheduled jobs; what else must not run in a command
     * reads {@link CommandContext}.
     */
    private static ConfigurableApplicationContext commandContext(GatewayJar jar, List<String> options) {
        List<String> spring = new ArrayList<>(options);
        spring.addAll(List.of(
                "--spring.main.web-application-type=none",
                "--spring.main.banner-mode=off",
                "--" + COMMAND_PROPERTY + "=true",
                // a command never runs routes; an embedded broker, if the profile has one, keeps nothing on disk
                "--camel.main.routes-include-pattern=classpath:no-routes-for-commands/*.yaml",
                // nor watches route files (the demo profile's route reload)
                "--camel.main.routes-reload-enabled=false",
                "--spring.artemis.embedded.persistent=false",
                // nor samples the dead-letter queues for a metric nobody scrapes
                "--gateway.dead-letters.depth-interval=0",
                "--logging.level.root=WARN",
                "--logging.level.org.apache.camel.spring.boot=ERROR"));
        return new SpringApplicationBuilder(jar.application()).properties(jar.defaults()).web(WebApplicationType.NONE)
                .logStartupInfo(false).run(spring.toArray(String[]::new));
    }
}
