package io.legacygateway.cli;

import java.util.List;
import java.util.Map;

/**
 * A runnable jar of the gateway: the product's ({@code gateway-app.jar}) or the demo's ({@code gateway-demo.jar}, the
 * gateway with the demo and the lab on its class path). The same {@code main} logic runs both
 * ({@code GatewayApplication.run(GatewayJar, String[])}); this says what differs.
 *
 * @param fileName       the jar's file name, as {@code help} prints it
 * @param application    the Spring application class of the gateway and of its command contexts
 * @param withoutCommand what the jar runs without a command, as {@code help} says it
 * @param commands       its commands (picocli {@code @Command} classes, {@link GatewayCommands}), in the order
 *                       {@code help} lists them
 * @param defaults       default properties of the gateway and of its command contexts, below every other source (for
 *                       example the demo's default profile)
 */
public record GatewayJar(String fileName, Class<?> application, String withoutCommand,
                         List<Class<?>> commands, Map<String, Object> defaults) {

    public GatewayJar {
        commands = List.copyOf(commands);
        defaults = Map.copyOf(defaults);
    }
}
