package io.legacygateway.command;

import picocli.CommandLine.Option;

/**
 * Where the running gateway is and who calls it: the options of every command that talks to one, mixed into each
 * ({@code @Mixin}), with the environment as their defaults so that a script need not put a password on a command line.
 */
public final class GatewayApiOptions {

    @Option(names = "--gateway", paramLabel = "URL", defaultValue = "${env:GATEWAY_URL:-http://127.0.0.1:8080}",
            description = "the running gateway (default: GATEWAY_URL, else http://127.0.0.1:8080)")
    String url;

    @Option(names = "--user", paramLabel = "USER", defaultValue = "${env:GATEWAY_USER}",
            description = "its HTTP Basic user (default: GATEWAY_USER)")
    String user;

    @Option(names = "--password", paramLabel = "PASSWORD", defaultValue = "${env:GATEWAY_PASSWORD}",
            description = "that user's password (default: GATEWAY_PASSWORD)")
    String password;

    /** A client of the gateway these options name. */
    public GatewayApiClient client() {
        return new GatewayApiClient(url, user, password);
    }
}
