package io.legacygateway;

import io.legacygateway.cli.GatewayCli;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The gateway. Without arguments (or with {@code --key=value} options only) it runs the routes; with a command word
 * ({@code java -jar gateway-app.jar help}) it runs that command and exits.
 */
@SpringBootApplication
public class GatewayApplication {
    public static void main(String[] args) {
        if (GatewayCli.isCommand(args)) {
            System.exit(GatewayCli.run(args));
        }
        SpringApplication.run(GatewayApplication.class, args);
    }
}
