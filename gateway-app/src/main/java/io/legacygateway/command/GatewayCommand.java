package io.legacygateway.command;

import java.io.PrintStream;

/**
 * A command of the gateway jar that reads no configuration: a client of a running gateway's REST API
 * ({@link GatewayApiOptions}), or one that needs nothing but its arguments. It is a picocli {@code @Command}: picocli
 * sets its {@code @Option} and {@code @Parameters} fields from the arguments before {@link #run} (bad usage never
 * reaches it), and it runs in a plain JVM, without a Spring context ({@code cli/GatewayCli}).
 *
 * <p>A command class is read by picocli whenever the jar parses arguments, also for {@code help}: the types in its
 * fields' and methods' signatures are loaded then, so they name no Spring context, Camel, broker, pool or driver type.
 */
public interface GatewayCommand {

    /**
     * @param out where the command writes its report
     * @return the process exit status: 0 done, 1 a finding the caller must act on or a refusal, 2 bad usage
     */
    int run(PrintStream out) throws Exception;
}
