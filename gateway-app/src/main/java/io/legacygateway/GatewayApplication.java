package io.legacygateway;

import io.legacygateway.adapters.Failures;
import io.legacygateway.cli.GatewayCli;
import io.legacygateway.cli.GatewayCommands;
import io.legacygateway.cli.GatewayJar;
import io.legacygateway.config.ClassDataSharingTraining;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.config.NothingConfigured;
import io.legacygateway.config.RouteFolders;
import java.time.Clock;
import java.util.Map;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The gateway. Without arguments (or with {@code --key=value} options only) it runs the routes; with a command word
 * ({@code java -jar gateway-app.jar help}) it runs that command and exits. A startup that fails ends the process with
 * status 1, its cause on the last ERROR line (threads of libraries, such as a broker client's, do not keep it alive);
 * so does a start with nothing configured, no datasource and no route file ({@link NothingConfigured}).
 *
 * <p>Each feature wires itself (a {@code *Configuration} in its package, found by the component scan); this class
 * declares only what they all share: the settings, the legacy datasources, the route folders and the clock.
 */
@SpringBootApplication
@EnableConfigurationProperties(GatewayProperties.class)
public class GatewayApplication {

    /** The product jar: no default profile, no demo; the gateway's commands. */
    public static final GatewayJar PRODUCT = new GatewayJar("gateway-app.jar", GatewayApplication.class,
            "the gateway runs the configured routes", GatewayCommands.all(), Map.of());

    public static void main(String[] args) {
        run(PRODUCT, args);
    }

    /** A missing route folder matches nothing instead of failing the startup ({@link RouteFolders}). */
    @Bean
    static BeanPostProcessor routeFolders() {
        return RouteFolders.installer();
    }

    /** Decides every time-dependent outcome (backoff, retry, retention, reconciliation age); tests pin it. */
    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    GatewayDataSources gatewayDataSources(GatewayProperties properties) {
        return new GatewayDataSources(properties);
    }

    /** Runs the command of {@code jar} that {@code args} name and exits, or else the gateway. */
    public static void run(GatewayJar jar, String[] args) {
        if (GatewayCli.isCommand(args)) {
            System.exit(GatewayCli.run(jar, args));
        }
        try {
            SpringApplication application = new SpringApplication(jar.application());
            application.setDefaultProperties(jar.defaults());
            application.addListeners(new NothingConfigured());
            if (Boolean.getBoolean(ClassDataSharingTraining.PROPERTY)) {
                application.addListeners(new ClassDataSharingTraining());
            }
            application.run(args);
        } catch (RuntimeException | Error failure) {
            // Spring Boot has logged the stack trace and closed the context; the reason goes last, alone, and the
            // wrappers that met it (Camel's route and property binding) before it
            String chain = Failures.chain(failure);
            String reason = Failures.reason(failure);
            if (!reason.equals(chain)) {
                LoggerFactory.getLogger(GatewayApplication.class).error("Startup failed in: {}", chain);
            }
            LoggerFactory.getLogger(GatewayApplication.class).error("The gateway did not start: {}", reason);
            System.exit(1);
        }
    }
}
