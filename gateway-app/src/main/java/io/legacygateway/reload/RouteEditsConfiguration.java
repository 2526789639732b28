package io.legacygateway.reload;

import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.inbox.InboxConsumerFactory;
import io.legacygateway.relay.OutboxRelayFactory;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.RoutesLoader;
import org.apache.camel.support.PluginHelper;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Route edits without a restart, for development: with {@code camel.main.routes-reload-enabled=true} (the demo's
 * profile; off by default) Camel watches {@code camel.main.routes-reload-directory} and hands every changed file to
 * {@link RouteEdits}, which checks it before it replaces any route. Camel's default of stopping and removing every
 * route before loading the changed file ({@code camel.main.routes-reload-remove-all-routes=true}) would stop every
 * relay and consumer at each edit, the good ones with the bad, and remove the route templates with them: it fails the
 * startup, naming the key.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = RouteEditsConfiguration.ENABLED, havingValue = "true")
public class RouteEditsConfiguration {

    static final String ENABLED = "camel.main.routes-reload-enabled";
    static final String REMOVE_ALL = "camel.main.routes-reload-remove-all-routes";

    /** Puts {@link RouteEdits} in place of Camel's routes loader, before the routes are loaded. */
    @Bean
    static BeanPostProcessor routeEdits(Environment environment, BeanFactory beans) {
        if (environment.getProperty(REMOVE_ALL, Boolean.class, true)) {
            throw new IllegalStateException(REMOVE_ALL + " must be false with " + ENABLED + "=true: Camel would stop"
                    + " and remove every route and route template before loading a changed file, so one edit would"
                    + " stop every relay and consumer, and a bad edit would leave none running");
        }
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof CamelContext camel
                        && !(PluginHelper.getRoutesLoader(camel) instanceof RouteEdits)) {
                    RoutesLoader camelLoader = PluginHelper.getRoutesLoader(camel);
                    camel.getCamelContextExtension().addContextPlugin(RoutesLoader.class, new RouteEdits(camelLoader,
                            camel, () -> new RouteEditCheck(beans.getBean(GatewayProperties.class),
                                    beans.getBean(GatewayDataSources.class)),
                            () -> beans.getBean(OutboxRelayFactory.class),
                            () -> beans.getBean(InboxConsumerFactory.class)));
                }
                return bean;
            }
        };
    }
}
