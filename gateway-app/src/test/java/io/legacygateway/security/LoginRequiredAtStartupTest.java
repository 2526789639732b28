package io.legacygateway.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.legacygateway.GatewayApplication;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Outside the demo the gateway does not start without an account, nor with a short plain-text password (which
 * includes the demo's well-known one), and says which key to set. The profile {@code no-accounts} has no file, so
 * only the defaults of {@code application.yml} and the options below apply.
 */
class LoginRequiredAtStartupTest {

    @Test
    void withoutAnyUserStartupFailsNamingTheKey() {
        assertThat(startupFailure()).contains("gateway.security.users: no user is configured")
                .contains("GATEWAY_SECURITY_USERS_OPERATOR_PASSWORD");
    }

    @Test
    void theDemoPasswordOutsideTheDemoFailsStartupNamingTheKey() {
        assertThat(startupFailure("gateway.security.users.ops.password=demo",
                "gateway.security.users.ops.roles=operator"))
                .contains("gateway.security.users.ops.password: a plain-text password needs at least 12 characters");
    }

    @Test
    void anAccountWithoutPasswordFailsStartupNamingTheKey() {
        assertThat(startupFailure("gateway.security.users.ops.roles=operator"))
                .contains("security.users[ops].password").contains("must not be blank");
    }

    @Test
    void aLongPasswordOrAnEncodedOneStarts() {
        try (ConfigurableApplicationContext context = start(
                "gateway.security.users.ops.password=a-long-enough-secret",
                "gateway.security.users.ops.roles=operator",
                // an encoded password (a bcrypt hash) cannot be length-checked and is accepted as it is
                "gateway.security.users.auditor.password={bcrypt}$2a$10$V0kzU2nNr0Bq1sC0jP3F4e3u3M6cZQy0nKZ8m5Cwzv6nq5jv5jvG6")) {
            assertThat(context.isRunning()).isTrue();
        }
    }

    private static String startupFailure(String... properties) {
        Throwable t = catchThrowable(() -> start(properties).close());
        assertThat(t).as("startup must fail").isNotNull();
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append('\n');
        }
        return all.toString();
    }

    private static ConfigurableApplicationContext start(String... properties) {
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--spring.main.banner-mode=off",
                "--spring.artemis.mode=embedded", "--spring.artemis.embedded.enabled=true",
                "--spring.artemis.embedded.persistent=false",
                "--camel.main.routes-include-pattern=classpath:no-routes-in-tests/*.yaml",
                "--logging.level.root=WARN"));
        for (String p : properties) {
            args.add("--" + p);
        }
        return new SpringApplicationBuilder(GatewayApplication.class).web(WebApplicationType.SERVLET)
                .profiles("no-accounts").run(args.toArray(String[]::new));
    }
}
