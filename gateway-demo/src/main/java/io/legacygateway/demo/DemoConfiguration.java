package io.legacygateway.demo;

import io.legacygateway.config.CommandContext;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginTrackedResource;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import jakarta.jms.ConnectionFactory;

/**
 * The embedded demo (profile {@code demo}, the default): a legacy application writing orders, a wallet service fed by
 * an inbox consumer, duplicate deliveries to show the inbox skipping them, and a banner. It runs when
 * {@code demo.enabled} is true ({@link DemoProperties}), and never in a command's context: the demo jar's commands read
 * the demo profile too, and start no demo traffic.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("demo.enabled")
@ConditionalOnBooleanProperty(name = CommandContext.PROPERTY, havingValue = false, matchIfMissing = true)
public class DemoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DemoConfiguration.class);

    @Bean
    DemoLegacyApplication demoLegacyApplication(GatewayDataSources dataSources, DemoProperties settings,
                                                Clock clock) {
        return new DemoLegacyApplication(dataSources, settings, clock);
    }

    @Bean
    DemoWallet demoWallet(GatewayDataSources dataSources, DemoProperties settings) {
        return new DemoWallet(dataSources, settings);
    }

    @Bean
    @ConditionalOnBooleanProperty("demo.duplicate-deliveries")
    DemoDuplicateDeliveries demoDuplicateDeliveries(GatewayDataSources dataSources, GatewayProperties properties,
                                                    DemoProperties settings, DemoWallet wallet,
                                                    ConnectionFactory connectionFactory) {
        return new DemoDuplicateDeliveries(dataSources, properties, settings, wallet, connectionFactory);
    }

    @Bean
    @ConditionalOnBooleanProperty("demo.poison-messages")
    DemoPoisonMessages demoPoisonMessages(DemoWallet wallet, ConnectionFactory connectionFactory,
                                          GatewayProperties properties, DemoProperties settings, Clock clock,
                                          Environment env) {
        return new DemoPoisonMessages(wallet, connectionFactory, properties, settings, clock, "http://"
                + env.getProperty("server.address", "127.0.0.1") + ":" + env.getProperty("server.port", "8080"));
    }

    @Bean
    ApplicationListener<ApplicationReadyEvent> demoBanner(ConfigurableEnvironment env, GatewayProperties properties) {
        return event -> {
            String base = "http://" + env.getProperty("server.address", "localhost") + ":"
                    + env.getProperty("local.server.port", env.getProperty("server.port", "8080"));
            String logins = logins(env, properties);
            log.info("""

                    ==== Legacy gateway demo is running ====
                    The demo legacy application writes orders and outbox rows into H2 (./data/demo/legacy).
                    Relay 'demo-orders' publishes them as CloudEvents to the embedded Artemis queue demo.orders.events;
                    'demo-customers' the changes of table customers, captured by triggers, to demo.customers.events;
                    'demo-billing' the rows of the billing module's own table EVT_QUEUE to demo.billing.events.
                    Inbox consumer 'demo-wallet' applies each order event once to the customers' wallets in a second
                    H2 database (./data/demo/wallet, table customer_wallet); now and then an event is delivered twice
                    (demo.duplicate-deliveries) and the log shows the inbox skipping the copy; now and then
                    an order for a customer without a wallet is dead-lettered (demo.poison-messages): list and
                    redeliver dead letters at {}/api/dead-letters (README: "Dead letters: list and redeliver").
                      Hawtio (Camel routes, JMX):      {}/actuator/hawtio/   (no Artemis tab: the embedded broker's
                                                       queues are in the JMX tab, org.apache.activemq.artemis;
                                                       README "Hawtio: what is there")
                      Metrics (Prometheus):            {}/actuator/prometheus   (grep gateway_outbox, gateway_inbox)
                      Health:                          {}/actuator/health
                      Reconciliation:                  {}/api/reconciliation?format=text&all=true{}
                    Stop with Ctrl-C; delete ./data/demo to start over.
                    """, base, base, base, base, base, logins);
        };
    }

    /**
     * The banner's login lines. A password is printed only when it is plain text and comes from the configuration
     * packaged in the jar (the documented demo login of application-demo.yml); one set anywhere else (environment,
     * command line, a file of the operator's) is never printed, only where it was set.
     */
    static String logins(ConfigurableEnvironment env, GatewayProperties properties) {
        StringBuilder logins = new StringBuilder();
        properties.security().users().forEach((name, user) -> {
            String key = "gateway.security.users." + name + ".password";
            Origin origin = origin(env, key);
            if (user.plainPassword() && packaged(origin)) {
                logins.append(String.format("%n  Login (demo only, %s): user '%s', password '%s', roles %s", key,
                        name, user.encodedPassword().substring("{noop}".length()), user.roles()));
            } else {
                logins.append(String.format("%n  Login: user '%s', roles %s (password as set in %s, not shown)",
                        name, user.roles(), origin == null ? key : origin));
            }
        });
        return logins.toString();
    }

    /** Whether the value comes from a file on the class path: the configuration packaged in the jar. */
    private static boolean packaged(Origin origin) {
        if (!(origin instanceof TextResourceOrigin text)) {
            return false;
        }
        // Spring Boot's config data wraps the file's resource
        Resource resource = text.getResource() instanceof OriginTrackedResource tracked ? tracked.getResource()
                : text.getResource();
        return resource instanceof ClassPathResource;
    }

    /** Where the value of {@code key} that wins comes from, or null when no source tells. */
    private static Origin origin(ConfigurableEnvironment env, String key) {
        ConfigurationPropertyName name = ConfigurationPropertyName.of(key);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(env)) {
            ConfigurationProperty property = source.getConfigurationProperty(name);
            if (property != null) {
                Origin origin = property.getOrigin();
                // the property source's origin wraps the file's, if it has one
                return origin instanceof PropertySourceOrigin p && p.getOrigin() != null ? p.getOrigin() : origin;
            }
        }
        return null;
    }
}
