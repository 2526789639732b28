package io.legacygateway.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Who may use the operator surfaces (Hawtio, Jolokia, {@code /actuator/**} beyond health and info, {@code /api/**}):
 * settings under {@code gateway.security.*}. Authentication is always on; there is no switch to turn it off.
 *
 * @param users               the accounts, by user name; at least one is required when the gateway serves HTTP
 *                            (startup fails naming {@code gateway.security.users} otherwise). No default account
 *                            exists outside the {@code demo} profile, whose {@code application-demo.yml} defines the
 *                            documented demo user
 * @param anonymousPrometheus serve {@code /actuator/prometheus} without credentials so that a scraper needs none;
 *                            default true. Set false to require a {@code VIEWER} login (HTTP Basic) for scraping too
 */
public record GatewaySecurityProperties(
        @DefaultValue Map<String, @Valid User> users,
        @DefaultValue("true") boolean anonymousPrometheus) {

    /** Shortest plain-text password accepted outside the demo. */
    public static final int MIN_PASSWORD_LENGTH = 12;

    /**
     * One account.
     *
     * @param password the password: plain text, or an encoded form with its id prefix as Spring Security's
     *                 {@code DelegatingPasswordEncoder} reads it (for example {@code {bcrypt}$2a$10$...}). Outside the
     *                 demo a plain-text password needs at least {@value #MIN_PASSWORD_LENGTH} characters
     * @param roles    what the account may do; default {@code VIEWER} (least privilege)
     */
    public record User(
            @NotBlank String password,
            @DefaultValue("VIEWER") @NotEmpty Set<Role> roles) {

        /** True when the password is given in clear ({@code {noop}} or no encoder prefix), so it can be checked. */
        public boolean plainPassword() {
            return !password.startsWith("{") || password.startsWith("{noop}");
        }

        /** The password as Spring Security's {@code DelegatingPasswordEncoder} expects it. */
        public String encodedPassword() {
            return password.startsWith("{") ? password : "{noop}" + password;
        }

        /** The password without a {@code {noop}} prefix; meaningful for plain passwords only. */
        String clearPassword() {
            return password.startsWith("{noop}") ? password.substring("{noop}".length()) : password;
        }

        /** The account's roles with the ones they imply ({@code OPERATOR} implies {@code VIEWER}). */
        public Set<Role> effectiveRoles() {
            Set<Role> all = EnumSet.noneOf(Role.class);
            roles.forEach(r -> all.addAll(r.implied()));
            return all;
        }
    }

    /** What an account may do on the operator surfaces. */
    public enum Role {
        /** Read: Hawtio and Jolokia {@code read}/{@code list}/{@code search}/{@code version}, GET on the actuator and {@code /api/**}. */
        VIEWER,
        /** Everything a viewer may, plus operations: Jolokia {@code exec}/{@code write}, POST/PUT/DELETE on {@code /api/**}. */
        OPERATOR;

        Set<Role> implied() {
            return this == OPERATOR ? EnumSet.of(OPERATOR, VIEWER) : EnumSet.of(VIEWER);
        }
    }

    /**
     * Checks what bean validation cannot: an account exists, and outside the demo no plain-text password is short
     * (which also refuses the demo's well-known password).
     *
     * @param demo whether the demo runs ({@code gateway.demo.enabled}); only then are short passwords accepted
     * @throws IllegalStateException naming the key to set
     */
    public void verify(boolean demo) {
        if (users.isEmpty()) {
            throw new IllegalStateException("gateway.security.users: no user is configured, and the gateway never "
                    + "serves Hawtio, Jolokia or /api without a login. Set gateway.security.users.<name>.password and "
                    + "gateway.security.users.<name>.roles (VIEWER or OPERATOR), for example the environment variables "
                    + "GATEWAY_SECURITY_USERS_OPERATOR_PASSWORD and GATEWAY_SECURITY_USERS_OPERATOR_ROLES=operator");
        }
        if (demo) {
            return;
        }
        users.forEach((name, user) -> {
            if (user.plainPassword() && user.clearPassword().length() < MIN_PASSWORD_LENGTH) {
                throw new IllegalStateException("gateway.security.users." + name + ".password: a plain-text password "
                        + "needs at least " + MIN_PASSWORD_LENGTH + " characters outside the demo (the demo's "
                        + "well-known password is refused here); set a long one or an encoded one such as "
                        + "{bcrypt}$2a$10$...");
            }
        });
    }
}
