package io.legacygateway.capture;

import io.legacygateway.config.GatewayDataSources;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Trigger capture for tables without an outbox: the {@code triggers} command's bean. */
@Configuration(proxyBeanMethods = false)
public class CaptureConfiguration {

    /** {@code java -jar gateway-app.jar triggers ...}: installs, shows or removes a table's capture triggers. */
    @Bean
    TriggersCommand triggersCommand(GatewayDataSources dataSources) {
        return new TriggersCommand(dataSources);
    }
}
