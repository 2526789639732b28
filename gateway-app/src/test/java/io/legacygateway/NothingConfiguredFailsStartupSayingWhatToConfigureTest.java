package io.legacygateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.GatewayProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar gateway-app.jar} where nothing is configured (no default profile, no datasource, no route file)
 * does not run empty: it ends with status 1 and one report naming what to configure ({@code gateway.datasources}, the
 * route folders and {@code camel.main.routes-include-pattern}, {@code gateway.security.users}) and where the docs are,
 * before the web server, the broker client or Camel start, writing nothing. A command that needs no routes or
 * configuration ({@code ddl}) still runs there.
 */
class NothingConfiguredFailsStartupSayingWhatToConfigureTest {

    @TempDir
    Path workDir;

    @Test
    void aStartWithNothingConfiguredExitsOneNamingWhatToConfigure() throws Exception {
        GatewayProcess.Result run = GatewayProcess.run(workDir, Duration.ofSeconds(120));
        String output = run.output();

        assertThat(run.exitCode()).as("exit status (null: still running)\n" + output).isEqualTo(1);
        assertThat(output).contains("APPLICATION FAILED TO START",
                "Nothing to run: no datasource is configured (gateway.datasources) and no route file matches"
                        + " camel.main.routes-include-pattern (file:routes/outbox/*.yaml,file:routes/inbox/*.yaml,"
                        + " from " + workDir.toRealPath(),
                "gateway.datasources.<name> (url, username, password)", "routes/outbox/", "routes/inbox/",
                "gateway.security.users.<name>", "docs/deployment.md", "java -jar gateway-demo.jar");
        assertThat(output).as("a report, not a stack trace").doesNotContain("\tat ");
        List<String> errors = run.lines().stream().map(GatewayProcess.Line::text).filter(l -> l.contains(" ERROR "))
                .toList();
        assertThat(errors.get(errors.size() - 1)).contains("The gateway did not start: NothingConfiguredException:"
                + " Nothing to run");
        // (Spring Boot's failure analyzers load some of Tomcat's classes: the server itself does not start)
        assertThat(run.loaded("org.apache.camel.impl.", "org.apache.catalina.startup.", "org.apache.activemq.",
                "com.zaxxer.hikari.")).as("Camel, the web server, the broker client or a pool started").isEmpty();
        try (Stream<Path> written = Files.list(workDir)) {
            assertThat(written).as("files created in the working directory").isEmpty();
        }
    }

    @Test
    void aCommandThatNeedsNoConfigurationStillRuns() throws Exception {
        GatewayProcess.Result run = GatewayProcess.run(workDir, Duration.ofSeconds(60), "ddl", "h2", "outbox");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("CREATE TABLE").doesNotContain("Nothing to run");
    }
}
