package io.legacygateway.security;

import io.legacygateway.config.GatewayProperties;
import io.legacygateway.config.GatewaySecurityProperties;
import io.legacygateway.config.GatewaySecurityProperties.Role;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.jolokia.support.spring.actuator.JolokiaProperties;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.authentication.HttpStatusEntryPoint;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.authentication.www.BasicAuthenticationEntryPoint;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.CsrfTokenRequestAttributeHandler;
import org.springframework.security.web.csrf.CsrfTokenRequestHandler;
import org.springframework.security.web.csrf.XorCsrfTokenRequestAttributeHandler;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.MediaTypeRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.util.StringUtils;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The login in front of every operator surface. Accounts come from {@code gateway.security.users}
 * ({@link GatewaySecurityProperties}); startup fails naming the key when none is configured or a plain-text password is
 * short, unless {@code gateway.security.short-passwords-accepted} (then a WARN at startup names that key).
 *
 * <table>
 *   <caption>paths and roles</caption>
 *   <tr><th>path</th><th>who</th></tr>
 *   <tr><td>{@code /actuator/health/**}, {@code /actuator/info}</td><td>anyone (probes)</td></tr>
 *   <tr><td>{@code /actuator/prometheus}</td><td>anyone, or {@code VIEWER} when
 *       {@code gateway.security.anonymous-prometheus=false}</td></tr>
 *   <tr><td>{@code /actuator/hawtio/**}, {@code /actuator/jolokia/**}</td><td>{@code VIEWER}; Jolokia requests other
 *       than read/list/search/version need {@code OPERATOR}, proxy requests nobody ({@link JolokiaRequestGuard});
 *       viewers read no secret-bearing attribute ({@link JolokiaRoleRestrictor})</td></tr>
 *   <tr><td>{@code /actuator/hawtio/proxy/**}</td><td>nobody (Hawtio's connect proxy)</td></tr>
 *   <tr><td>other {@code /actuator/**}, {@code /api/**}</td><td>GET/HEAD {@code VIEWER}; other methods {@code OPERATOR}</td></tr>
 *   <tr><td>anything else</td><td>any logged-in user</td></tr>
 * </table>
 *
 * <p>Browsers log in with a form ({@code /login}) and keep a session; scripts send HTTP Basic credentials with every
 * request. CSRF protection follows Hawtio's documented Spring Security set-up for its single-page app: the token lives
 * in the {@code XSRF-TOKEN} cookie, which Hawtio echoes in the {@code X-XSRF-TOKEN} header. Requests that carry HTTP
 * Basic credentials need no token: a browser only attaches Basic credentials it was challenged for, and browser page
 * loads are never challenged (they are redirected to the form).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableWebSecurity
public class SecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);

    @Bean
    InMemoryUserDetailsManager gatewayUsers(GatewayProperties properties) {
        GatewaySecurityProperties security = properties.security();
        security.verify();
        if (security.shortPasswordsAccepted()) {
            log.warn("{}=true: plain-text passwords shorter than {} characters are accepted; only for a gateway "
                            + "listening on loopback only", GatewaySecurityProperties.SHORT_PASSWORDS_ACCEPTED,
                    GatewaySecurityProperties.MIN_PASSWORD_LENGTH);
        }
        List<UserDetails> users = new ArrayList<>();
        security.users().forEach((name, user) -> users.add(User.withUsername(name)
                .password(user.encodedPassword())
                .roles(user.effectiveRoles().stream().map(Role::name).toArray(String[]::new))
                .build()));
        return new InMemoryUserDetailsManager(users);
    }

    /**
     * Jolokia's restrictor is {@link JolokiaRoleRestrictor} whatever the configuration says: startup fails naming
     * {@value #RESTRICTOR_KEY} when it names another (a policy file would be ignored with it, so it is refused too).
     */
    @Bean
    static BeanPostProcessor jolokiaRestrictor() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof JolokiaProperties jolokia) {
                    Map<String, String> config = jolokia.getConfig();
                    String configured = config.get(RESTRICTOR_CLASS);
                    String ours = JolokiaRoleRestrictor.class.getName();
                    if (configured != null && !configured.equals(ours)) {
                        throw new IllegalStateException(RESTRICTOR_KEY + "=" + configured + ": the gateway's Jolokia "
                                + "checks roles with " + ours + "; remove the key");
                    }
                    if (config.containsKey(POLICY_LOCATION)) {
                        throw new IllegalStateException("management.endpoint.jolokia.config." + POLICY_LOCATION
                                + " is not used: the gateway's Jolokia checks roles with " + ours + "; remove the key");
                    }
                    config.put(RESTRICTOR_CLASS, ours);
                }
                return bean;
            }
        };
    }

    static final String RESTRICTOR_CLASS = "restrictorClass";
    static final String POLICY_LOCATION = "policyLocation";
    static final String RESTRICTOR_KEY = "management.endpoint.jolokia.config." + RESTRICTOR_CLASS;

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    SecurityFilterChain gatewaySecurityFilterChain(HttpSecurity http, GatewayProperties properties,
                                                   WebEndpointProperties endpoints) throws Exception {
        String actuator = endpoints.getBasePath();
        String hawtio = actuator + "/hawtio";
        String jolokia = actuator + "/jolokia";
        String viewer = Role.VIEWER.name();
        String operator = Role.OPERATOR.name();
        boolean anonymousPrometheus = properties.security().anonymousPrometheus();

        RequestMatcher basicCredentials = request -> {
            String header = request.getHeader("Authorization");
            return header != null && header.regionMatches(true, 0, "Basic ", 0, 6);
        };
        MediaTypeRequestMatcher html = new MediaTypeRequestMatcher(MediaType.TEXT_HTML);
        html.setIgnoredMediaTypes(Set.of(MediaType.ALL));
        RequestMatcher browserPage = new AndRequestMatcher(request -> HttpMethod.GET.matches(request.getMethod()), html);
        RequestMatcher[] console = {path(hawtio + "/**"), path(jolokia + "/**")};

        http.authorizeHttpRequests(auth -> {
                    auth.requestMatchers(path(actuator + "/health/**"), path(actuator + "/info")).permitAll();
                    if (anonymousPrometheus) {
                        auth.requestMatchers(path(actuator + "/prometheus")).permitAll();
                    }
                    auth.requestMatchers(path("/error"), path("/login")).permitAll()
                            .requestMatchers(path(hawtio + "/proxy/**")).denyAll()
                            .requestMatchers(console).hasRole(viewer)
                            .requestMatchers(path(HttpMethod.GET, actuator + "/**"), path(HttpMethod.HEAD, actuator + "/**"),
                                    path(HttpMethod.GET, "/api/**"), path(HttpMethod.HEAD, "/api/**"))
                            .hasRole(viewer)
                            .requestMatchers(path(actuator + "/**"), path("/api/**")).hasRole(operator)
                            .anyRequest().authenticated();
                })
                .formLogin(form -> form.defaultSuccessUrl(hawtio + "/"))
                .httpBasic(basic -> {
                })
                .logout(logout -> logout.logoutSuccessUrl("/login?logout"))
                .exceptionHandling(e -> e
                        // page loads go to the login form and never get a Basic challenge (see the class comment)
                        .defaultAuthenticationEntryPointFor(new LoginUrlAuthenticationEntryPoint("/login"), browserPage)
                        // Hawtio's own calls: 401 without a challenge, so the browser shows no Basic dialog
                        .defaultAuthenticationEntryPointFor(new HttpStatusEntryPoint(HttpStatus.UNAUTHORIZED),
                                new OrRequestMatcher(console))
                        .defaultAuthenticationEntryPointFor(basicEntryPoint(), request -> true))
                .csrf(csrf -> csrf
                        .csrfTokenRepository(CookieCsrfTokenRepository.withHttpOnlyFalse())
                        .csrfTokenRequestHandler(new SpaCsrfTokenRequestHandler())
                        .ignoringRequestMatchers(basicCredentials))
                .addFilterAfter(new CsrfCookieFilter(), BasicAuthenticationFilter.class)
                .addFilterAfter(new JolokiaRequestGuard(List.of(jolokia, hawtio + "/jolokia")),
                        AuthorizationFilter.class);
        return http.build();
    }

    private static RequestMatcher path(String pattern) {
        return PathPatternRequestMatcher.withDefaults().matcher(pattern);
    }

    private static RequestMatcher path(HttpMethod method, String pattern) {
        return PathPatternRequestMatcher.withDefaults().matcher(method, pattern);
    }

    private static BasicAuthenticationEntryPoint basicEntryPoint() {
        BasicAuthenticationEntryPoint entryPoint = new BasicAuthenticationEntryPoint();
        entryPoint.setRealmName("legacy-gateway");
        return entryPoint;
    }

    /**
     * CSRF tokens for a single-page app: the masked (BREACH-safe) token when a page renders it, the raw cookie value
     * when the app echoes it in the {@code X-XSRF-TOKEN} header.
     */
    static final class SpaCsrfTokenRequestHandler implements CsrfTokenRequestHandler {
        private final CsrfTokenRequestHandler plain = new CsrfTokenRequestAttributeHandler();
        private final CsrfTokenRequestHandler masked = new XorCsrfTokenRequestAttributeHandler();

        @Override
        public void handle(HttpServletRequest request, HttpServletResponse response, Supplier<CsrfToken> token) {
            masked.handle(request, response, token);
        }

        @Override
        public String resolveCsrfTokenValue(HttpServletRequest request, CsrfToken token) {
            return StringUtils.hasText(request.getHeader(token.getHeaderName()))
                    ? plain.resolveCsrfTokenValue(request, token)
                    : masked.resolveCsrfTokenValue(request, token);
        }
    }

    /** Loads the deferred CSRF token on every request so that the {@code XSRF-TOKEN} cookie is always set. */
    static final class CsrfCookieFilter extends OncePerRequestFilter {
        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            CsrfToken token = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
            if (token != null) {
                token.getToken();
            }
            chain.doFilter(request, response);
        }
    }
}
