package io.legacygateway.config;

import io.legacygateway.broker.BrokerXmlCustomizer;
import io.legacygateway.cli.GatewayCli;
import io.legacygateway.ops.ConsumerMBeans;
import io.legacygateway.ops.GatewayHealthIndicators;
import io.legacygateway.ops.GatewayMBeans;
import io.legacygateway.ops.GatewaySampler;
import io.legacygateway.ops.OperationAudit;
import io.legacygateway.ops.RetentionJob;
import io.legacygateway.ops.RelayMBeans;
import io.legacygateway.ops.RelayOperations;
import io.legacygateway.inbox.InboxConsumerFactory;
import io.legacygateway.inbox.InboxConsumerTemplate;
import io.legacygateway.inbox.InboxDeliveryHook;
import io.legacygateway.reconciliation.Reconciliation;
import io.legacygateway.reconciliation.ReconciliationJmx;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.relay.OutboxRelayTemplate;
import io.legacygateway.relay.RelayCycleHook;
import io.legacygateway.relay.RetryJitter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jms.connection.DelegatingConnectionFactory;
import org.springframework.jms.connection.SingleConnectionFactory;

/** Wires the gateway's own parts; Spring Boot and Camel auto-configuration provide the rest. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(GatewayProperties.class)
public class GatewayConfiguration {

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

    /** The random source of the relays' retry jitter; tests pin it. */
    @Bean
    @ConditionalOnMissingBean
    RetryJitter retryJitter() {
        return RetryJitter.random();
    }

    @Bean
    GatewayDataSources gatewayDataSources(GatewayProperties properties) {
        return new GatewayDataSources(properties);
    }

    @Bean
    OutboxRelayFactory outboxRelayFactory(GatewayProperties properties, GatewayDataSources dataSources,
                                          ConnectionFactory connectionFactory, MeterRegistry meters, Clock clock,
                                          RetryJitter jitter, ObjectProvider<RelayCycleHook> hooks) {
        return new OutboxRelayFactory(properties, dataSources, nativeFactory(connectionFactory), meters, clock, jitter,
                hooks.orderedStream().toList());
    }

    @Bean
    InboxConsumerFactory inboxConsumerFactory(GatewayProperties properties, GatewayDataSources dataSources,
                                              ConnectionFactory connectionFactory, MeterRegistry meters, Clock clock,
                                              ObjectProvider<InboxDeliveryHook> hooks) {
        return new InboxConsumerFactory(properties, dataSources, nativeFactory(connectionFactory), meters, clock,
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

    @Bean
    Reconciliation reconciliation(GatewayProperties properties, OutboxRelayFactory relays,
                                  GatewayDataSources dataSources, Clock clock) {
        return new Reconciliation(properties, relays, dataSources, clock);
    }

    @Bean
    ReconciliationJmx reconciliationJmx(Reconciliation reconciliation, GatewayMBeans mbeans) {
        return new ReconciliationJmx(reconciliation, mbeans);
    }

    @Bean
    RelayOperations relayOperations(OutboxRelayFactory relays, OperationAudit audit) {
        return new RelayOperations(relays, audit);
    }

    @Bean
    GatewayMBeans gatewayMBeans() {
        return new GatewayMBeans();
    }

    @Bean
    ConsumerMBeans consumerMBeans(InboxConsumerFactory consumers, GatewayMBeans mbeans) {
        return new ConsumerMBeans(consumers, mbeans);
    }

    @Bean
    RelayMBeans relayMBeans(OutboxRelayFactory relays, RelayOperations operations, GatewayMBeans mbeans) {
        return new RelayMBeans(relays, operations, mbeans);
    }

    @Bean
    GatewaySampler gatewaySampler(GatewayProperties properties, OutboxRelayFactory relays,
                                  ObjectProvider<HealthEndpoint> health,
                                  ObjectProvider<ApplicationAvailability> availability, MeterRegistry meters,
                                  Environment environment) {
        return new GatewaySampler(properties, relays, health, availability, meters,
                GatewayCli.isCommandContext(environment));
    }

    @Bean
    RetentionJob retentionJob(GatewayProperties properties, OutboxRelayFactory relays,
                              InboxConsumerFactory consumers, MeterRegistry meters, Clock clock,
                              Environment environment) {
        return new RetentionJob(properties, relays, consumers, meters, clock, GatewayCli.isCommandContext(environment));
    }

    /** Readiness: every datasource answers ({@code /actuator/health/readiness}, see application.yml). */
    @Bean
    GatewayHealthIndicators.Databases gatewayDatabasesHealthIndicator(GatewayDataSources dataSources) {
        return new GatewayHealthIndicators.Databases(dataSources);
    }

    /** Readiness: the broker accepts a connection. */
    @Bean
    GatewayHealthIndicators.Broker brokerHealthIndicator(ConnectionFactory connectionFactory) {
        return new GatewayHealthIndicators.Broker(nativeFactory(connectionFactory));
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
