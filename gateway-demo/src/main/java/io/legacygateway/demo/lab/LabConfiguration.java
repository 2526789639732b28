package io.legacygateway.demo.lab;

import io.legacygateway.broker.BrokerConnections;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.reconciliation.Reconciliation;
import io.legacygateway.relay.OutboxRelayFactory;
import jakarta.jms.ConnectionFactory;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The reconciliation lab's beans ({@code java -jar gateway-demo.jar lab}); on the demo jar's class path only. */
@Configuration(proxyBeanMethods = false)
public class LabConfiguration {

    @Bean
    ReconciliationLab reconciliationLab(GatewayDataSources dataSources, OutboxRelayFactory relays,
                                        Reconciliation reconciliation, ConnectionFactory connectionFactory,
                                        Clock clock) {
        // the broker's own factory: a caching wrapper would keep the lab's consumers (and their prefetched messages)
        return new ReconciliationLab(dataSources, relays, reconciliation,
                BrokerConnections.nativeFactory(connectionFactory), clock);
    }
}
