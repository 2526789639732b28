package io.legacygateway.broker;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedded broker's settings from {@code artemis-config/broker.xml} ({@link BrokerXmlCustomizer}), which Spring Boot
 * applies to the broker it embeds; a standalone broker reads that file itself.
 */
@Configuration(proxyBeanMethods = false)
public class BrokerConfiguration {

    @Bean
    BrokerXmlCustomizer brokerXmlCustomizer() {
        return new BrokerXmlCustomizer();
    }
}
