package io.legacygateway.demo;

import io.legacygateway.capture.TriggersCommand;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import jakarta.jms.ConnectionFactory;

/**
 * The embedded demo (profile {@code demo}, the default): a legacy application writing orders, a wallet service fed by
 * an inbox consumer, duplicate deliveries to show the inbox skipping them, and a banner.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "gateway.demo.enabled", havingValue = "true")
public class DemoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DemoConfiguration.class);

    @Bean
    DemoLegacyApplication demoLegacyApplication(GatewayDataSources dataSources, GatewayProperties properties,
                                                Clock clock, TriggersCommand triggers) {
        return new DemoLegacyApplication(dataSources, properties, clock, triggers);
    }

    @Bean
    DemoWallet demoWallet(GatewayDataSources dataSources, GatewayProperties properties) {
        return new DemoWallet(dataSources, properties);
    }

    @Bean
    @ConditionalOnProperty(name = "gateway.demo.duplicate-deliveries", havingValue = "true")
    DemoDuplicateDeliveries demoDuplicateDeliveries(GatewayDataSources dataSources, GatewayProperties properties,
                                                    DemoWallet wallet, ConnectionFactory connectionFactory) {
        return new DemoDuplicateDeliveries(dataSources, properties, wallet, connectionFactory);
    }

    @Bean
    @ConditionalOnProperty(name = "gateway.demo.poison-messages", havingValue = "true")
    DemoPoisonMessages demoPoisonMessages(DemoWallet wallet, ConnectionFactory connectionFactory,
                                          GatewayProperties properties, Clock clock, Environment env) {
        return new DemoPoisonMessages(wallet, connectionFactory, properties, clock, "http://"
                + env.getProperty("server.address", "127.0.0.1") + ":" + env.getProperty("server.port", "8080"));
    }

    @Bean
    ApplicationListener<ApplicationReadyEvent> demoBanner(Environment env, GatewayProperties properties) {
        return event -> {
            String base = "http://" + env.getProperty("server.address", "localhost") + ":"
                    + env.getProperty("local.server.port", env.getProperty("server.port", "8080"));
            StringBuilder logins = new StringBuilder();
            properties.security().users().forEach((name, user) -> logins.append(user.plainPassword()
                    ? String.format("%n  Login (demo only, gateway.security.users.%s): user '%s', password '%s', roles %s",
                            name, name, user.encodedPassword().substring("{noop}".length()), user.roles())
                    : String.format("%n  Login: user '%s' (password encoded in gateway.security.users.%s)", name, name)));
            log.info("""

                    ==== Legacy gateway demo is running ====
                    The demo legacy application writes orders and outbox rows into H2 (./data/demo/legacy).
                    Relay 'demo-orders' publishes them as CloudEvents to the embedded Artemis queue demo.orders.events;
                    'demo-customers' the changes of table customers, captured by triggers, to demo.customers.events;
                    'demo-billing' the rows of the billing module's own table EVT_QUEUE to demo.billing.events.
                    Inbox consumer 'demo-wallet' applies each order event once to the customers' wallets in a second
                    H2 database (./data/demo/wallet, table customer_wallet); now and then an event is delivered twice
                    (gateway.demo.duplicate-deliveries) and the log shows the inbox skipping the copy; now and then
                    an order for a customer without a wallet is dead-lettered (gateway.demo.poison-messages): list and
                    redeliver dead letters at {}/api/dead-letters (README: "Dead letters: list and redeliver").
                      Hawtio (Camel routes, Artemis):  {}/actuator/hawtio/
                      Metrics (Prometheus):            {}/actuator/prometheus   (grep gateway_outbox, gateway_inbox)
                      Health:                          {}/actuator/health
                      Reconciliation:                  {}/api/reconciliation?format=text&all=true{}
                    Stop with Ctrl-C; delete ./data/demo to start over.
                    """, base, base, base, base, base, logins);
        };
    }
}
