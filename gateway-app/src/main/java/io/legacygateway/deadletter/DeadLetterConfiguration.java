package io.legacygateway.deadletter;

import io.legacygateway.broker.BrokerConnections;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.inbox.InboxConsumerFactory;
import io.legacygateway.operator.OperationAudit;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Dead-letter listing and redelivery: the service and the depth gauge (HTTP and JMX: {@link DeadLetterOperatorSurface},
 * whose HTTP client is the {@code dlq} command). The broker is reached through the application's
 * {@link ConnectionFactory}, embedded or standalone alike.
 */
@Configuration(proxyBeanMethods = false)
public class DeadLetterConfiguration {

    @Bean
    DeadLetterBrowser deadLetterBrowser(GatewayProperties properties, ConnectionFactory connectionFactory) {
        return new DeadLetterBrowser(BrokerConnections.nativeFactory(connectionFactory),
                properties.deadLetters().address(), properties.deadLetters().browseLimit());
    }

    @Bean
    DeadLetterDepthSampler deadLetterDepthSampler(DeadLetterBrowser browser, MeterRegistry meters,
                                                  GatewayProperties properties) {
        return new DeadLetterDepthSampler(browser, meters, properties.deadLetters().depthInterval());
    }

    @Bean
    DeadLetterRedelivery deadLetterRedelivery(DeadLetterBrowser browser, InboxConsumerFactory consumers,
                                              GatewayDataSources dataSources, OperationAudit audit,
                                              GatewayProperties properties, ConnectionFactory connectionFactory,
                                              MeterRegistry meters, Clock clock,
                                              ObjectProvider<RedeliveryPace.Sleeper> sleeper,
                                              ObjectProvider<DeadLetterRedeliveryHook> hooks,
                                              DeadLetterDepthSampler sampler) {
        DeadLetterRedelivery redelivery = new DeadLetterRedelivery(browser, new InboxLookup(consumers, dataSources),
                audit, properties, BrokerConnections.nativeFactory(connectionFactory), meters, clock,
                sleeper.getIfAvailable(() -> RedeliveryPace.Sleeper.THREAD), hooks.orderedStream().toList());
        redelivery.afterChange(sampler::sampleSoon);
        return redelivery;
    }
}
