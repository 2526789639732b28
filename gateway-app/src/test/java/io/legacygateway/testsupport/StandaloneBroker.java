package io.legacygateway.testsupport;

import org.springframework.test.context.DynamicPropertyRegistry;

/** Points a test's Spring context at the shared standalone broker, as the gateway's user. */
public final class StandaloneBroker {

    private StandaloneBroker() {
    }

    public static void register(DynamicPropertyRegistry registry) {
        registry.add("spring.artemis.mode", () -> "native");
        registry.add("spring.artemis.embedded.enabled", () -> "false");
        registry.add("spring.artemis.broker-url", () -> StandaloneArtemis.shared().url());
        registry.add("spring.artemis.user", () -> StandaloneArtemis.GATEWAY_USER);
        registry.add("spring.artemis.password", () -> "gateway");
    }
}
