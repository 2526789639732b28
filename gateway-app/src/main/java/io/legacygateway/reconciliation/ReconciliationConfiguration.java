package io.legacygateway.reconciliation;

import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.transactions.XaTransactions;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The reconciliation report over each relay's outbox: the service (HTTP and JMX:
 * {@link ReconciliationOperatorSurface}, whose HTTP client is the {@code reconcile} command).
 */
@Configuration(proxyBeanMethods = false)
public class ReconciliationConfiguration {

    @Bean
    Reconciliation reconciliation(GatewayProperties properties, OutboxRelayFactory relays,
                                  GatewayDataSources dataSources, Clock clock, XaTransactions xa) {
        return new Reconciliation(properties, relays, dataSources, clock, xa);
    }
}
