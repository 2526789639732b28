package io.legacygateway.reconciliation;

import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.ops.GatewayMBeans;
import io.legacygateway.relay.OutboxRelayFactory;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The reconciliation report over each relay's outbox: the service and its JMX bean (REST:
 * {@link ReconciliationController}, whose client is the {@code reconcile} command).
 */
@Configuration(proxyBeanMethods = false)
public class ReconciliationConfiguration {

    @Bean
    Reconciliation reconciliation(GatewayProperties properties, OutboxRelayFactory relays,
                                  GatewayDataSources dataSources, Clock clock) {
        return new Reconciliation(properties, relays, dataSources, clock);
    }

    @Bean
    ReconciliationJmx reconciliationJmx(Reconciliation reconciliation, GatewayMBeans mbeans) {
        return new ReconciliationJmx(reconciliation, mbeans);
    }
}
