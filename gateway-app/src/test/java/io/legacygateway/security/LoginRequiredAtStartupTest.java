package io.legacygateway.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.legacygateway.GatewayApplication;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * The gateway does not start without an account, nor with a short plain-text password (such as the demo's well-known
 * one) unless {@code gateway.security.short-passwords-accepted} is true, and says which key to set. The profile
 * {@code no-accounts} has no file, so only the defaults of {@code application.yml} and the options below apply.
 */
class LoginRequiredAtStartupTest {

    @Test
    void withoutAnyUserStartupFailsNamingTheKey() {
        assertThat(startupFailure()).contains("gateway.security.users: no user is configured")
                .contains("GATEWAY_SECURITY_USERS_OPERATOR_PASSWORD");
    }

    @Test
    void aShortPasswordFailsStartupNamingTheKeyAndTheSettingThatAcceptsIt() {
        assertThat(startupFailure("gateway.security.users.ops.password=demo",
                "gateway.security.users.ops.roles=operator"))
                .contains("gateway.security.users.ops.password: a plain-text password needs at least 12 characters")
                .contains("gateway.security.short-passwords-accepted=true");
    }

    @Test
    void aShortPasswordStartsWhenShortPasswordsAreAcceptedWithAWarningNamingTheKey() {
        ListAppender<ILoggingEvent> securityLog = new ListAppender<>();
        try (ConfigurableApplicationContext context = start(securityLog,
                "gateway.security.short-passwords-accepted=true",
                "gateway.security.users.ops.password=demo", "gateway.security.users.ops.roles=operator")) {
            UserDetails ops = context.getBean(UserDetailsService.class).loadUserByUsername("ops");
            assertThat(context.getBean(PasswordEncoder.class).matches("demo", ops.getPassword())).isTrue();
            assertThat(securityLog.list).filteredOn(e -> e.getLevel() == Level.WARN)
                    .extracting(ILoggingEvent::getFormattedMessage)
                    .anyMatch(m -> m.startsWith("gateway.security.short-passwords-accepted=true"));
        }
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
        return start(new ListAppender<>(), properties);
    }

    /** Starts the gateway with {@code securityLog} attached to {@link SecurityConfiguration}'s logger. */
    private static ConfigurableApplicationContext start(ListAppender<ILoggingEvent> securityLog,
                                                        String... properties) {
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--spring.main.banner-mode=off",
                "--spring.artemis.mode=embedded", "--spring.artemis.embedded.enabled=true",
                "--spring.artemis.embedded.persistent=false",
                "--camel.main.routes-include-pattern=classpath:no-routes-in-tests/*.yaml",
                "--logging.level.root=WARN"));
        for (String p : properties) {
            args.add("--" + p);
        }
        // attached once Spring Boot has configured logging, which drops appenders added earlier
        ApplicationListener<ApplicationEvent> attach = event -> {
            if (event instanceof ApplicationPreparedEvent) {
                securityLog.start();
                ((Logger) LoggerFactory.getLogger(SecurityConfiguration.class)).addAppender(securityLog);
            }
        };
        return new SpringApplicationBuilder(GatewayApplication.class).web(WebApplicationType.SERVLET)
                .profiles("no-accounts").listeners(attach).run(args.toArray(String[]::new));
    }
}
