package io.legacygateway.cli;

import io.legacygateway.config.CommandContext;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

/**
 * Runs a command of a {@link GatewayJar}: {@code java -jar gateway-app.jar [--spring options] <command> [args]}.
 * Arguments starting with {@code --} before the command word are Spring options (for example
 * {@code --spring.profiles.active=prod}); a configured command's context reads them, a remote command ignores them.
 * The command is chosen from the arguments alone: {@code help}, {@code --help}, {@code -h} and an unknown word print
 * the list and start nothing (exit 0, unknown: 2), a remote command starts no Spring context.
 */
public final class GatewayCli {

    private GatewayCli() {
    }

    /** Set in a command's context: scheduled jobs (metrics sampler, retention) do not start there. */
    static final String COMMAND_PROPERTY = CommandContext.PROPERTY;

    private static final Set<String> HELP = Set.of("help", "--help", "-h");

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
        String word = command.get(0);
        if (HELP.contains(word)) {
            help(jar, System.out);
            return 0;
        }
        Optional<GatewayCommands.Entry> entry = GatewayCommands.named(jar.commands(), command);
        if (entry.isEmpty()) {
            System.err.println("Unknown command '" + word + "'.");
            help(jar, System.err);
            return 2;
        }
        List<String> arguments = command.subList(entry.get().name().split(" ").length, command.size());
        try {
            if (!entry.get().needsConfiguration()) {
                return entry.get().withoutContext().get().run(arguments, System.out);
            }
            try (ConfigurableApplicationContext context = commandContext(jar, spring)) {
                return context.getBean(entry.get().bean()).run(arguments, System.out);
            }
        } catch (Exception e) {
            System.err.println("error: " + e.getMessage());
            return 1;
        }
    }

    /** The list of commands, one line each. */
    static void help(GatewayJar jar, PrintStream out) {
        out.println("Usage: java -jar " + jar.fileName() + " [--spring.option=value ...] [<command> [arguments]]");
        out.println("Without a command " + jar.withoutCommand() + ". Commands:");
        for (GatewayCommands.Entry e : jar.commands()) {
            out.printf("  %-13s %s%n", e.name(), e.summary());
        }
        out.printf("  %-13s %s%n", "help", "this list (also --help, -h)");
        out.println(String.join(", ", jar.commands().stream().filter(GatewayCommands.Entry::talksToGateway)
                .map(GatewayCommands.Entry::name).toList()) + ": talk to a running gateway (--gateway=URL --user="
                + " --password=, or GATEWAY_URL, GATEWAY_USER, GATEWAY_PASSWORD) and read no other configuration.");
        out.println("Exit status: 0 done, 1 a finding to act on or a failure, 2 bad usage or unknown command.");
    }

    /** The gateway's configuration without web server, routes, demo traffic or scheduled jobs. */
    private static ConfigurableApplicationContext commandContext(GatewayJar jar, List<String> options) {
        List<String> spring = new ArrayList<>(options);
        spring.addAll(List.of(
                "--spring.main.web-application-type=none",
                "--spring.main.banner-mode=off",
                "--gateway.demo.enabled=false",
                "--" + COMMAND_PROPERTY + "=true",
                // a command never runs routes; an embedded broker, if the profile has one, keeps nothing on disk
                "--camel.main.routes-include-pattern=classpath:no-routes-for-commands/*.yaml",
                "--spring.artemis.embedded.persistent=false",
                // nor samples the dead-letter queues for a metric nobody scrapes
                "--gateway.dead-letters.depth-interval=0",
                "--logging.level.root=WARN",
                "--logging.level.org.apache.camel.spring.boot=ERROR"));
        return new SpringApplicationBuilder(jar.application()).properties(jar.defaults()).web(WebApplicationType.NONE)
                .logStartupInfo(false).run(spring.toArray(String[]::new));
    }
}
