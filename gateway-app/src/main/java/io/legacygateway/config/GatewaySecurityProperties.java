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
 * @param users                  the accounts, by user name; at least one is required when the gateway serves HTTP
 *                               (startup fails naming {@code gateway.security.users} otherwise). There is no default
 *                               account
 * @param anonymousPrometheus    serve {@code /actuator/prometheus} without credentials so that a scraper needs none;
 *                               default true. Set false to require a {@code VIEWER} login (HTTP Basic) for scraping
 *                               too
 * @param shortPasswordsAccepted accept plain-text passwords shorter than {@value #MIN_PASSWORD_LENGTH} characters;
 *                               default false. Only for a gateway listening on loopback only ({@code server.address:
 *                               127.0.0.1}), as the demo jar's {@code demo} profile does with its well-known login; the
 *                               gateway logs a WARN naming this key at every startup while it is on
 */
public record GatewaySecurityProperties(
        @DefaultValue Map<String, @Valid User> users,
        @DefaultValue("true") boolean anonymousPrometheus,
        @DefaultValue("false") boolean shortPasswordsAccepted) {

    /** Shortest plain-text password accepted unless {@code gateway.security.short-passwords-accepted} is true. */
    public static final int MIN_PASSWORD_LENGTH = 12;

    /** The key of {@link #shortPasswordsAccepted}, as messages name it. */
    public static final String SHORT_PASSWORDS_ACCEPTED = "gateway.security.short-passwords-accepted";

    /**
     * One account.
     *
     * @param password the password: plain text, or an encoded form with its id prefix as Spring Security's
     *                 {@code DelegatingPasswordEncoder} reads it (for example {@code {bcrypt}$2a$10$...}). A
     *                 plain-text password needs at least {@value #MIN_PASSWORD_LENGTH} characters unless
     *                 {@code gateway.security.short-passwords-accepted} is true
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
     * Checks what bean validation cannot: an account exists, and no plain-text password is short unless
     * {@link #shortPasswordsAccepted}.
     *
     * @throws IllegalStateException naming the key to set
     */
    public void verify() {
        if (users.isEmpty()) {
            throw new IllegalStateException("gateway.security.users: no user is configured, and the gateway never "
                    + "serves Hawtio, Jolokia or /api without a login. Set gateway.security.users.<name>.password and "
                    + "gateway.security.users.<name>.roles (VIEWER or OPERATOR), for example the environment variables "
                    + "GATEWAY_SECURITY_USERS_OPERATOR_PASSWORD and GATEWAY_SECURITY_USERS_OPERATOR_ROLES=operator");
        }
        if (shortPasswordsAccepted) {
            return;
        }
        users.forEach((name, user) -> {
            if (user.plainPassword() && user.clearPassword().length() < MIN_PASSWORD_LENGTH) {
                throw new IllegalStateException("gateway.security.users." + name + ".password: a plain-text password "
                        + "needs at least " + MIN_PASSWORD_LENGTH + " characters; set a long one or an encoded one "
                        + "such as {bcrypt}$2a$10$... (" + SHORT_PASSWORDS_ACCEPTED + "=true accepts short ones, for "
                        + "a gateway listening on loopback only)");
            }
        });
    }
}
