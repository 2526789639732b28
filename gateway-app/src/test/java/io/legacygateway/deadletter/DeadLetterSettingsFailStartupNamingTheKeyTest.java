package io.legacygateway.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.legacygateway.GatewayApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;

/** Bad {@code gateway.dead-letters.*} values stop the gateway at startup with a message naming the key. */
class DeadLetterSettingsFailStartupNamingTheKeyTest {

    @Test
    void aRateOutsideItsRangeNamesTheKey() {
        assertThat(startupFailure("--gateway.dead-letters.default-rate-per-second=0"))
                .contains("deadLetters.defaultRatePerSecond").contains("must be greater than or equal to 1");
    }

    @Test
    void aNegativeSamplingIntervalOrAnEmptyHorizonNamesTheKey() {
        assertThat(startupFailure("--gateway.dead-letters.depth-interval=-1s"))
                .contains("gateway.dead-letters.depth-interval must be 0 (off) or positive");
        assertThat(startupFailure("--gateway.dead-letters.replay-horizon=0s"))
                .contains("gateway.dead-letters.replay-horizon must be positive");
    }

    @Test
    void aMisspeltKeyNamesIt() {
        assertThat(startupFailure("--gateway.dead-letters.replay-horizn=1d")).contains("replay-horizn");
    }

    private static String startupFailure(String... args) {
        Throwable t = catchThrowable(() -> new SpringApplicationBuilder(GatewayApplication.class)
                .web(WebApplicationType.NONE).profiles("test").run(args).close());
        assertThat(t).as("startup must fail").isNotNull();
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append('\n');
        }
        return all.toString();
    }
}
