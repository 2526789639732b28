package io.legacygateway.config;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * Fails a start of the gateway that has nothing to run: no datasource under {@code gateway.datasources} and no route
 * file matched by {@code camel.main.routes-include-pattern}. The product jar has no default profile, so this is what
 * {@code java -jar gateway-app.jar} without configuration meets: one message naming what to configure and where it is
 * documented, exit status 1, before the web server, the broker client or Camel start (instead of a gateway running
 * empty, or failing later on the first missing key). A start with a datasource or a route file goes on as before; so do
 * the commands, whose contexts never run routes.
 *
 * <p>Registered by {@code main} only ({@code GatewayApplication.run}), after Spring Boot's logging
 * is set up: tests that start a context of their own without routes or datasources are not affected.
 */
public final class NothingConfigured implements ApplicationListener<ApplicationEnvironmentPreparedEvent> {

    static final String ROUTES_KEY = "camel.main.routes-include-pattern";

    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        ConfigurableEnvironment environment = event.getEnvironment();
        if (CommandContext.in(environment)) {
            return;
        }
        boolean datasources = Binder.get(environment).bind("gateway.datasources",
                Bindable.mapOf(String.class, Object.class)).map(m -> !m.isEmpty()).orElse(false);
        String patterns = environment.getProperty(ROUTES_KEY, "");
        if (!datasources && !anyRouteFile(patterns)) {
            throw new NothingConfiguredException(description(patterns), ACTION);
        }
    }

    /** Whether a pattern matches a file; a pattern this resolver cannot read counts as a match (Camel decides). */
    static boolean anyRouteFile(String patterns) {
        PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();
        for (String pattern : Arrays.stream(patterns.split(",")).map(String::trim).filter(p -> !p.isEmpty())
                .toList()) {
            try {
                if (resolver.getResources(pattern).length > 0) {
                    return true;
                }
            } catch (IOException | RuntimeException unreadable) {
                return true;
            }
        }
        return false;
    }

    static String description(String patterns) {
        return "Nothing to run: no datasource is configured (gateway.datasources) and no route file matches "
                + ROUTES_KEY + " (" + (patterns.isBlank() ? "not set" : patterns) + ", from "
                + Path.of("").toAbsolutePath() + ").";
    }

    static final String ACTION = String.join(System.lineSeparator(), List.of(
            "Configure the gateway: a legacy database under gateway.datasources.<name> (url, username, password), a"
                    + " relay in routes/outbox/ or an inbox consumer in routes/inbox/ (routes/*/*.yaml.example are"
                    + " examples; or point " + ROUTES_KEY + " at your route files), and an operator login under"
                    + " gateway.security.users.<name> (password, roles).",
            "Every key and its default: docs/deployment.md (\"Application settings\", \"A real deployment\"); route"
                    + " parameters: docs/relay.md, docs/inbox.md. Settings go in ./config/application.yml,"
                    + " --spring.config.additional-location=<dir>/ or environment variables"
                    + " (GATEWAY_DATASOURCES_<NAME>_URL).",
            "To watch the gateway at work with nothing of your own, run the demo: java -jar gateway-demo.jar"
                    + " (gateway-demo/target/, the README's first command)."));

    /**
     * The start has nothing to run: {@link #getMessage()} says what is missing (the last ERROR line of
     * {@code main}), the failure report above it also what to configure.
     */
    public static final class NothingConfiguredException extends IllegalStateException {

        private final String description;
        private final String action;

        NothingConfiguredException(String description, String action) {
            super(description);
            this.description = description;
            this.action = action;
        }
    }

    /**
     * Spring Boot's report of the failure: what is missing and what to configure, without a stack trace (nothing in the
     * code went wrong). Registered in {@code META-INF/spring.factories}.
     */
    public static final class Analyzer extends AbstractFailureAnalyzer<NothingConfiguredException> {
        @Override
        protected FailureAnalysis analyze(Throwable rootFailure, NothingConfiguredException cause) {
            return new FailureAnalysis(cause.description, cause.action, cause);
        }
    }
}
