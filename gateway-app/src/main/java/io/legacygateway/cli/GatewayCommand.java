package io.legacygateway.cli;

import java.io.PrintStream;
import java.util.List;

/**
 * A subcommand of the gateway jar: {@code java -jar gateway-app.jar <name> [arguments]}, listed with its name and
 * summary in {@link GatewayCommands}. A remote command (a client of a running gateway's REST API) is a plain object
 * run without Spring; a configured command is a bean of a context built from the same configuration as the gateway
 * (profiles, {@code gateway.datasources}, broker settings) but without web server, routes or demo traffic. The
 * process exits with the returned status.
 */
public interface GatewayCommand {

    /**
     * @param args the arguments after the command name ({@code --key=value} Spring options already removed)
     * @param out  where the command writes its report
     * @return the process exit status: 0 success, 1 a finding the caller must act on, 2 bad usage
     */
    int run(List<String> args, PrintStream out) throws Exception;
}
