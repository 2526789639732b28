package io.legacygateway.inbox;

import io.legacygateway.broker.BrokerConnections;
import io.legacygateway.broker.BrokerFailovers;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.operator.GatewayMBeans;
import io.legacygateway.transactions.XaTransactions;
import io.legacygateway.tracing.GatewayTracing;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The idempotent inbox consumers: the factory that the {@code inbox-consumer} route template calls for each consumer,
 * and the template's bean. Consumers get the broker client's own factory ({@link BrokerConnections#nativeFactory}),
 * not Spring's caching wrapper, watched for failovers ({@link BrokerFailovers}).
 */
@Configuration(proxyBeanMethods = false)
public class InboxConfiguration {

    @Bean
    InboxConsumerFactory inboxConsumerFactory(GatewayProperties properties, GatewayDataSources dataSources,
                                              ConnectionFactory connectionFactory, XaTransactions xa,
                                              MeterRegistry meters, Clock clock,
                                              ObjectProvider<InboxDeliveryHook> hooks, BrokerFailovers failovers,
                                              GatewayTracing tracing) {
        return new InboxConsumerFactory(properties, dataSources,
                failovers.watch(BrokerConnections.nativeFactory(connectionFactory), BrokerFailovers.Role.INBOX),
                xa, meters, clock, hooks.orderedStream().toList(), tracing);
    }

    /** The gateway's datasources and the envelope's values for the camel-sql steps of effect routes. */
    @Bean
    CamelSqlSteps camelSqlSteps(GatewayDataSources dataSources, InboxConsumerFactory consumers) {
        return new CamelSqlSteps(dataSources, consumers);
    }

    /** The consumers' MBeans, registered as consumers are created. */
    @Bean
    ConsumerOperatorSurface consumerOperatorSurface(InboxConsumerFactory consumers, GatewayMBeans mbeans) {
        return new ConsumerOperatorSurface(consumers, mbeans);
    }

    @Bean
    InboxConsumerTemplate inboxConsumerTemplate(InboxConsumerFactory factory) {
        return new InboxConsumerTemplate(factory);
    }
}
