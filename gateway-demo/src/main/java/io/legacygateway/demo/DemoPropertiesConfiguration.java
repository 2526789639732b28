package io.legacygateway.demo;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/**
 * Binds the demo jar's settings ({@link DemoProperties}, {@code demo.*}) in every context of the demo jar: also when
 * the demo is off or a command runs, so that a misspelt or malformed {@code demo.*} key fails startup naming it, as one
 * under {@code gateway.*} does, instead of silently leaving the demo off.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DemoProperties.class)
public class DemoPropertiesConfiguration {
}
