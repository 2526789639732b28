package io.legacygateway.ops;

import io.legacygateway.broker.BrokerConnections;
import io.legacygateway.broker.BrokerFailovers;
import io.legacygateway.config.CommandContext;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.inbox.InboxConsumerFactory;
import io.legacygateway.operator.GatewayMBeans;
import io.legacygateway.operator.OperationAudit;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.relay.RelayOperations;
import io.legacygateway.transactions.XaTransactions;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Operating the relays and consumers: relay operations and their audit, the MBean registry, the metrics sampler, the
 * retention job and the readiness health indicators. The scheduled jobs do not start in a command's context
 * ({@link CommandContext}).
 */
@Configuration(proxyBeanMethods = false)
public class OperationsConfiguration {

    @Bean
    OperationAudit operationAudit(GatewayProperties properties, GatewayDataSources dataSources, Clock clock) {
        return new OperationAudit(properties, dataSources, clock);
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
    GatewaySampler gatewaySampler(GatewayProperties properties, OutboxRelayFactory relays,
                                  ObjectProvider<HealthEndpoint> health,
                                  ObjectProvider<ApplicationAvailability> availability, MeterRegistry meters,
                                  Environment environment) {
        return new GatewaySampler(properties, relays, health, availability, meters, CommandContext.in(environment));
    }

    @Bean
    RetentionJob retentionJob(GatewayProperties properties, OutboxRelayFactory relays,
                              InboxConsumerFactory consumers, MeterRegistry meters, Clock clock,
                              Environment environment) {
        return new RetentionJob(properties, relays, consumers, meters, clock, CommandContext.in(environment));
    }

    /** Readiness: every datasource answers ({@code /actuator/health/readiness}, see application.yml). */
    @Bean
    GatewayHealthIndicators.Databases gatewayDatabasesHealthIndicator(GatewayDataSources dataSources,
                                                                      GatewayProperties properties) {
        return new GatewayHealthIndicators.Databases(dataSources, properties.metrics().healthCacheInEffect());
    }

    /** Readiness: the broker accepts a connection. */
    @Bean
    GatewayHealthIndicators.Broker brokerHealthIndicator(ConnectionFactory connectionFactory,
                                                         GatewayProperties properties) {
        return new GatewayHealthIndicators.Broker(
                BrokerConnections.checkingFactory(connectionFactory, GatewayHealthIndicators.Broker.CHECK_BOUND),
                properties.metrics().healthCacheInEffect());
    }

    /** Readiness detail: a broker failover under way (always UP, see the class). */
    @Bean
    GatewayHealthIndicators.BrokerFailover brokerFailoverHealthIndicator(BrokerFailovers failovers) {
        return new GatewayHealthIndicators.BrokerFailover(failovers);
    }

    /** Readiness detail: the XA relays' in-doubt transactions and heuristic outcomes (always UP, see the class). */
    @Bean
    GatewayHealthIndicators.Xa xaTransactionsHealthIndicator(XaTransactions xa) {
        return new GatewayHealthIndicators.Xa(xa);
    }
}
