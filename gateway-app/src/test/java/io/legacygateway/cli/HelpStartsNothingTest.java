package io.legacygateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.GatewayApplication;
import io.legacygateway.testsupport.GatewayProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --help}, {@code help}, {@code -h} and an unknown command print every command with its summary and exit
 * 0 (unknown: 2) without starting anything: no Spring context is created (no class of Spring's context is even
 * loaded), nothing is logged, and nothing is written where the process runs (it used to start the demo and create
 * {@code ./data/demo} there). The elapsed time is printed, not asserted (the guide: performance belongs in benchmarks).
 */
class HelpStartsNothingTest {

    @TempDir
    Path workDir;

    @ParameterizedTest
    @CsvSource({"--help, 0", "help, 0", "-h, 0", "--spring.profiles.active=prod help, 0", "frobnicate, 2"})
    void helpAndAnUnknownCommandListTheCommandsAndStartNothing(String args, int exitCode) throws Exception {
        GatewayProcess.Result run = GatewayProcess.run(workDir, Duration.ofSeconds(60), args.split(" "));
        System.out.printf("java ... GatewayApplication %s: exit %s in %.2f s%n", args, run.exitCode(), run.seconds());

        assertThat(run.exitCode()).as(run.output()).isEqualTo(exitCode);
        GatewayCli.commands(GatewayCli.commandLine(GatewayApplication.PRODUCT)).forEach((name, command) ->
                assertThat(run.output()).contains("  " + name + " ").contains(GatewayCli.summary(command)));
        if (exitCode == 2) {
            assertThat(run.output()).startsWith("Unknown command 'frobnicate'.");
        }
        assertThat(run.loaded("org.springframework.context.", "org.springframework.boot.SpringApplication",
                "org.apache.camel.", "org.apache.activemq.", "com.zaxxer.hikari.", "ch.qos.logback."))
                .as("classes of a Spring context, Camel, the broker, a pool or logging").isEmpty();
        try (Stream<Path> written = Files.list(workDir)) {
            assertThat(written).as("files created in the working directory").isEmpty();
        }
    }
}
