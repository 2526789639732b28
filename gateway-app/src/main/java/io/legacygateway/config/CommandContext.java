package io.legacygateway.config;

import org.springframework.core.env.Environment;

/**
 * Whether a Spring context runs one command ({@code java -jar gateway-app.jar <command>}) rather than the gateway: the
 * command launcher sets {@link #PROPERTY} to {@code true} in the contexts it starts, and what runs only in the gateway
 * (the scheduled jobs, the nothing-configured check, an application's own traffic on top of the gateway) reads it
 * here, so it need not know the launcher.
 */
public final class CommandContext {

    /** {@code true} in a command's context; absent (false) in the gateway's. */
    public static final String PROPERTY = "gateway-cli.command";

    private CommandContext() {
    }

    /** Whether {@code environment} is a command's context. */
    public static boolean in(Environment environment) {
        return environment.getProperty(PROPERTY, Boolean.class, false);
    }
}
