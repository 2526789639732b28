package io.legacygateway.cli;

import java.io.PrintStream;
import java.util.List;

/**
 * A subcommand of the gateway jar: {@code java -jar gateway-app.jar <name> [arguments]}. Commands are Spring beans;
 * they run in a context built from the same configuration as the gateway (profiles, {@code gateway.datasources}, broker
 * settings) but without web server, routes or demo traffic, and the process exits with the returned status.
 */
public interface GatewayCommand {

    /** The word that selects the command, for example {@code triggers}. */
    String name();

    /** One line for {@code help}. */
    String summary();

    /**
     * @param args the arguments after the command name ({@code --key=value} Spring options already removed)
     * @param out  where the command writes its report
     * @return the process exit status: 0 success, 1 a finding the caller must act on, 2 bad usage
     */
    int run(List<String> args, PrintStream out) throws Exception;
}
