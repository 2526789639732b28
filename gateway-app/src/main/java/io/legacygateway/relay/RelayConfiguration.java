package io.legacygateway.relay;

import io.legacygateway.broker.BrokerConnections;
import io.legacygateway.broker.BrokerFailovers;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.tracing.GatewayTracing;
import io.legacygateway.transactions.XaTransactions;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.time.Clock;
import org.apache.camel.CamelContext;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The outbox relays: the factory that the {@code outbox-relay} route template calls for each relay, the template's
 * bean, and the {@code relay explain} command. Each relay publishes over its own connection from the broker client's
 * factory with a producer window for whole batches ({@link BrokerConnections#publishingFactory}), whose failovers
 * {@link BrokerFailovers} watches.
 */
@Configuration(proxyBeanMethods = false)
public class RelayConfiguration {

    /** The random source of the relays' retry jitter; tests pin it. */
    @Bean
    @ConditionalOnMissingBean
    RetryJitter retryJitter() {
        return RetryJitter.random();
    }

    @Bean
    OutboxRelayFactory outboxRelayFactory(GatewayProperties properties, GatewayDataSources dataSources,
                                          ConnectionFactory connectionFactory, XaTransactions xa,
                                          MeterRegistry meters, Clock clock, RetryJitter jitter,
                                          ObjectProvider<RelayCycleHook> hooks, ObjectProvider<CamelContext> camel,
                                          BrokerFailovers failovers, GatewayTracing tracing) {
        return new OutboxRelayFactory(properties, dataSources, failovers.watch(
                BrokerConnections.publishingFactory(BrokerConnections.nativeFactory(connectionFactory)),
                BrokerFailovers.Role.RELAY), xa, meters,
                clock, jitter, hooks.orderedStream().toList(), camel, tracing);
    }

    /**
     * Narayana for relays with {@code transactionMode: XA}, started by the first of them: while no relay uses XA it
     * starts nothing, registers no meter, and it is never the application's transaction manager.
     */
    @Bean
    XaTransactions xaTransactions(GatewayProperties properties, MeterRegistry meters) {
        return new XaTransactions(properties.transactions(), meters);
    }

    @Bean
    OutboxRelayTemplate outboxRelayTemplate(OutboxRelayFactory factory) {
        return new OutboxRelayTemplate(factory);
    }
}
