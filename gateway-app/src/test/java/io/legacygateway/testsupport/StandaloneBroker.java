package io.legacygateway.testsupport;

import java.util.function.Supplier;
import org.springframework.test.context.DynamicPropertyRegistry;

/** Points a test's Spring context at a standalone broker (the shared one unless given), as the gateway's user. */
public final class StandaloneBroker {

    private StandaloneBroker() {
    }

    public static void register(DynamicPropertyRegistry registry) {
        register(registry, () -> StandaloneArtemis.shared().url());
    }

    /** As {@link #register(DynamicPropertyRegistry)}, at another URL (a proxy in front of it, a broker pair). */
    public static void register(DynamicPropertyRegistry registry, Supplier<Object> url) {
        registry.add("spring.artemis.mode", () -> "native");
        registry.add("spring.artemis.embedded.enabled", () -> "false");
        registry.add("spring.artemis.broker-url", url);
        registry.add("spring.artemis.user", () -> StandaloneArtemis.GATEWAY_USER);
        registry.add("spring.artemis.password", () -> "gateway");
    }
}
