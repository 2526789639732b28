package io.legacygateway.cli;

import io.legacygateway.GatewayApplication;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Runs a {@link GatewayCommand}. Arguments starting with {@code --} and containing {@code =} before the command name
 * are Spring options (for example {@code --spring.profiles.active=prod}); the rest goes to the command.
 */
public final class GatewayCli {

    private GatewayCli() {
    }

    /** Set in a command's context: scheduled jobs (metrics sampler, retention) do not start there. */
    static final String COMMAND_PROPERTY = "gateway-cli.command";

    /** Whether this Spring context runs a command rather than the gateway. */
    public static boolean isCommandContext(org.springframework.core.env.Environment environment) {
        return environment.getProperty(COMMAND_PROPERTY, Boolean.class, false);
    }

    /** True when the process was started as a command rather than as the gateway. */
    public static boolean isCommand(String[] args) {
        return args.length > 0 && Arrays.stream(args).anyMatch(a -> !a.startsWith("--"));
    }

    /** Commands that need no Spring context: they run before one would start. */
    static final List<GatewayCommand> WITHOUT_CONTEXT = List.of(new DdlCommand());

    public static int run(String[] args) {
        List<String> spring = new ArrayList<>();
        List<String> command = new ArrayList<>();
        for (String a : args) {
            (command.isEmpty() && a.startsWith("--") && a.contains("=") ? spring : command).add(a);
        }
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
        GatewayCommand plain = WITHOUT_CONTEXT.stream().filter(c -> c.name().equals(command.get(0))).findFirst()
                .orElse(null);
        if (plain != null) {
            try {
                return plain.run(command.subList(1, command.size()), System.out);
            } catch (Exception e) {
                System.err.println("error: " + e.getMessage());
                return 1;
            }
        }
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(GatewayApplication.class)
                .web(WebApplicationType.NONE).logStartupInfo(false).run(spring.toArray(String[]::new))) {
            Map<String, GatewayCommand> commands = context.getBeansOfType(GatewayCommand.class);
            String name = command.get(0);
            GatewayCommand selected = commands.values().stream().filter(c -> c.name().equals(name)).findFirst()
                    .orElse(null);
            if (selected == null) {
                System.out.println(name.equals("help") ? "Commands:" : "Unknown command '" + name + "'. Commands:");
                Stream.concat(commands.values().stream(), WITHOUT_CONTEXT.stream())
                        .sorted(Comparator.comparing(GatewayCommand::name))
                        .forEach(c -> System.out.printf("  %-12s %s%n", c.name(), c.summary()));
                return name.equals("help") ? 0 : 2;
            }
            return selected.run(command.subList(1, command.size()), System.out);
        } catch (Exception e) {
            System.err.println("error: " + e.getMessage());
            return 1;
        }
    }
}
