package io.legacygateway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.config.GatewayProperties;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginTrackedResource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * The demo banner prints the documented demo login of the packaged application-demo.yml, and never a password that
 * came from anywhere else: here the environment ({@code GATEWAY_SECURITY_USERS_DEMO_PASSWORD}, and a second user set
 * only there). Before, it printed every plain-text password, whatever its source.
 */
class DemoBannerPrintsNoPasswordFromTheEnvironmentTest {

    @Test
    void thePackagedDemoLoginIsPrinted() throws IOException {
        String logins = DemoConfiguration.logins(demoEnvironment(Map.of()), properties(demoEnvironment(Map.of())));
        assertThat(logins).contains("user 'demo', password 'demo'");
    }

    @Test
    void aPasswordFromTheEnvironmentIsNeverPrinted() throws IOException {
        StandardEnvironment env = demoEnvironment(Map.of(
                "GATEWAY_SECURITY_USERS_DEMO_PASSWORD", "from-the-environment-secret",
                "GATEWAY_SECURITY_USERS_OPS_PASSWORD", "another-environment-secret",
                "GATEWAY_SECURITY_USERS_OPS_ROLES", "operator"));
        String logins = DemoConfiguration.logins(env, properties(env));
        assertThat(logins).doesNotContain("from-the-environment-secret").doesNotContain("another-environment-secret")
                .contains("user 'demo'").contains("user 'ops'")
                .contains("GATEWAY_SECURITY_USERS_DEMO_PASSWORD").contains("not shown");
    }

    /** The demo profile's packaged configuration under a machine environment of {@code variables}. */
    private static StandardEnvironment demoEnvironment(Map<String, Object> variables) throws IOException {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        variables));
        // as Spring Boot's config data loads it: the class path file, wrapped with its origin
        ClassPathResource file = new ClassPathResource("application-demo.yml");
        for (PropertySource<?> s : new YamlPropertySourceLoader().load("application-demo.yml",
                OriginTrackedResource.of(file, Origin.from(file)))) {
            env.getPropertySources().addLast(s);
        }
        ConfigurationPropertySources.attach(env);
        return env;
    }

    private static GatewayProperties properties(StandardEnvironment env) {
        return Binder.get(env).bind("gateway", GatewayProperties.class).get();
    }
}
