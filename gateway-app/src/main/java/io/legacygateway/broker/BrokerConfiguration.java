package io.legacygateway.broker;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedded broker's settings from {@code artemis-config/broker.xml} ({@link BrokerXmlCustomizer}), which Spring Boot
 * applies to the broker it embeds; a standalone broker reads that file itself. And what the gateway makes of a
 * failover of its broker connections ({@link BrokerFailovers}).
 */
@Configuration(proxyBeanMethods = false)
public class BrokerConfiguration {

    /** The failovers of the relays' and inbox consumers' connections (they watch their factories with it). */
    @Bean
    BrokerFailovers brokerFailovers(MeterRegistry meters, Clock clock) {
        return new BrokerFailovers(meters, clock);
    }

    @Bean
    BrokerXmlCustomizer brokerXmlCustomizer() {
        return new BrokerXmlCustomizer();
    }
}
