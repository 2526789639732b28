package io.legacygateway.command;

import java.io.PrintStream;
import picocli.CommandLine.ParameterException;

/**
 * A command of the gateway jar that works on the configured databases or broker itself. Like a
 * {@link GatewayCommand} it is a picocli {@code @Command} whose fields picocli sets from the arguments; it then runs with
 * the beans of a Spring context built from the same configuration as the gateway (profiles,
 * {@code gateway.datasources}, broker settings) but without web server, routes, demo traffic or scheduled jobs. The
 * context is built only for it, after its arguments were parsed and {@linkplain #checkUsage() checked}, and closed when
 * it returns.
 */
public interface ConfiguredCommand {

    /**
     * Checks what picocli cannot check option by option (options that need or exclude each other), before any
     * configuration is read.
     *
     * @throws ParameterException on bad usage: the process prints it with the command's usage and exits 2
     */
    default void checkUsage() {
    }

    /**
     * @param beans the command context's beans
     * @param out   where the command writes its report
     * @return the process exit status: 0 done, 1 a finding the caller must act on or a refusal, 2 bad usage
     */
    int run(CommandBeans beans, PrintStream out) throws Exception;
}
