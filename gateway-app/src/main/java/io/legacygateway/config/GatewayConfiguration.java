package io.legacygateway.config;

import io.legacygateway.broker.BrokerXmlCustomizer;
import io.legacygateway.ops.OperationAudit;
import io.legacygateway.capture.TriggersCommand;
import io.legacygateway.inbox.InboxConsumerFactory;
import io.legacygateway.inbox.InboxConsumerTemplate;
import io.legacygateway.inbox.InboxDeliveryHook;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.relay.OutboxRelayTemplate;
import io.legacygateway.relay.RelayCycleHook;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.connection.DelegatingConnectionFactory;
import org.springframework.jms.connection.SingleConnectionFactory;

/** Wires the gateway's own parts; Spring Boot and Camel auto-configuration provide the rest. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(GatewayProperties.class)
public class GatewayConfiguration {

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

    @Bean
    OutboxRelayFactory outboxRelayFactory(GatewayProperties properties, GatewayDataSources dataSources,
                                          ConnectionFactory connectionFactory, MeterRegistry meters, Clock clock,
                                          ObjectProvider<RelayCycleHook> hooks) {
        return new OutboxRelayFactory(properties, dataSources, nativeFactory(connectionFactory), meters, clock,
                hooks.orderedStream().toList());
    }

    @Bean
    InboxConsumerFactory inboxConsumerFactory(GatewayDataSources dataSources, ConnectionFactory connectionFactory,
                                              MeterRegistry meters, Clock clock,
                                              ObjectProvider<InboxDeliveryHook> hooks) {
        return new InboxConsumerFactory(dataSources, nativeFactory(connectionFactory), meters, clock,
                hooks.orderedStream().toList());
    }

    @Bean
    InboxConsumerTemplate inboxConsumerTemplate(InboxConsumerFactory factory) {
        return new InboxConsumerTemplate(factory);
    }

    @Bean
    BrokerXmlCustomizer brokerXmlCustomizer() {
        return new BrokerXmlCustomizer();
    }

    @Bean
    OutboxRelayTemplate outboxRelayTemplate(OutboxRelayFactory factory) {
        return new OutboxRelayTemplate(factory);
    }

    /** {@code java -jar gateway-app.jar triggers ...}: trigger capture for tables without an outbox. */
    @Bean
    TriggersCommand triggersCommand(GatewayDataSources dataSources) {
        return new TriggersCommand(dataSources);
    }

    @Bean
    OperationAudit operationAudit(GatewayProperties properties, GatewayDataSources dataSources, Clock clock) {
        return new OperationAudit(properties, dataSources, clock);
    }

    /**
     * Relays keep one connection each and manage their sessions themselves; Spring's caching wrapper shares one
     * connection between everything and would tie a relay's failure to the consumers' connection.
     */
    public static ConnectionFactory nativeFactory(ConnectionFactory cf) {
        ConnectionFactory current = cf;
        while (true) {
            if (current instanceof SingleConnectionFactory s && s.getTargetConnectionFactory() != null) {
                current = s.getTargetConnectionFactory();
            } else if (current instanceof DelegatingConnectionFactory d && d.getTargetConnectionFactory() != null) {
                current = d.getTargetConnectionFactory();
            } else {
                return current;
            }
        }
    }
}
