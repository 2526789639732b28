package io.legacygateway.config;

import java.io.File;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.PackageScanResourceResolver;
import org.apache.camel.spi.Resource;
import org.apache.camel.spring.boot.FatJarPackageScanResourceResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Route files of {@code camel.main.routes-include-pattern} ({@code file:routes/outbox/*.yaml,file:routes/inbox/*.yaml}
 * by default): a {@code file:} pattern whose folder does not exist matches nothing, as a pattern over an empty folder
 * does. Camel's own resolver fails the startup with {@code NoSuchFileException} instead, so a gateway with relays only
 * and no {@code routes/inbox/} folder would not start. Everything else resolves as in Camel Spring Boot.
 */
public final class RouteFolders extends FatJarPackageScanResourceResolver {

    private static final Logger log = LoggerFactory.getLogger(RouteFolders.class);

    /** Puts this resolver in place of Camel Spring Boot's in the Camel context, before its routes are collected. */
    public static BeanPostProcessor installer() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof CamelContext camel) {
                    RouteFolders resolver = new RouteFolders();
                    resolver.setCamelContext(camel);
                    camel.getCamelContextExtension().addContextPlugin(PackageScanResourceResolver.class, resolver);
                }
                return bean;
            }
        };
    }

    @Override
    protected void findInFileSystem(File dir, Set<Resource> resources, String subPattern, Predicate<String> filter)
            throws Exception {
        if (!dir.isDirectory()) {
            log.info("No route folder {} ({}): no routes from it", dir.getAbsoluteFile(), subPattern);
            return;
        }
        super.findInFileSystem(dir, resources, subPattern, filter);
    }
}
