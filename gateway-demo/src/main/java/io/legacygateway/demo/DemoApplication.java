package io.legacygateway.demo;

import io.legacygateway.GatewayApplication;
import io.legacygateway.cli.GatewayCommands;
import io.legacygateway.cli.GatewayJar;
import io.legacygateway.demo.lab.LabCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar gateway-demo.jar}: the gateway with the demo and the reconciliation lab. Without arguments it runs
 * the demo (default profile {@code demo}, {@code application-demo.yml}); {@code --spring.profiles.active=...} runs
 * another configuration, as with the product jar. Its commands are the product's plus {@code lab}.
 *
 * <p>The Spring application is the product's own ({@link GatewayApplication}): its component scan of
 * {@code io.legacygateway} finds the demo's settings ({@link DemoPropertiesConfiguration}, {@code demo.*}),
 * {@link DemoConfiguration} and the lab's configuration on this jar's class path.
 */
public final class DemoApplication {

    public static final GatewayJar DEMO = new GatewayJar("gateway-demo.jar", GatewayApplication.class,
            "the demo runs (default profile demo, data in ./data/demo)", commands(),
            Map.of("spring.profiles.default", "demo"));

    private DemoApplication() {
    }

    public static void main(String[] args) {
        GatewayApplication.run(DEMO, args);
    }

    private static List<Class<?>> commands() {
        List<Class<?>> commands = new ArrayList<>(GatewayCommands.all());
        commands.add(LabCommand.class);
        return commands;
    }
}
