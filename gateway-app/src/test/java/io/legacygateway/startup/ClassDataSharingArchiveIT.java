package io.legacygateway.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What {@code mvn package} ships for a fast start: the jar extracted to {@code target/gateway-app/}
 * ({@code gateway-app.jar} and {@code lib/}) and a class data sharing archive of it ({@code app.jsa}) that this JVM
 * accepts and that holds the classes a start needs (Spring Boot, Camel, the broker, Hawtio, the gateway's own).
 * Runs after the package phase (a second surefire execution, bound to {@code integration-test}); skipped when the
 * build was told {@code -Dgateway.cds.skip=true}. Structure only: how much faster the start is, is measured by
 * {@code bench/start.sh}.
 */
class ClassDataSharingArchiveIT {

    private static final Path EXTRACTED = Path.of("target", "gateway-app").toAbsolutePath();
    private static final Path JAR = EXTRACTED.resolve("gateway-app.jar");
    private static final Path ARCHIVE = EXTRACTED.resolve("app.jsa");

    @BeforeAll
    static void builtWithTheArchive() {
        assumeFalse(Boolean.getBoolean("gateway.cds.skip"), "built with -Dgateway.cds.skip=true");
    }

    @Test
    void thePackageHoldsTheExtractedJarAndAnArchiveOfTheClassesAStartLoads() throws Exception {
        assertThat(JAR).isRegularFile();
        assertThat(EXTRACTED.resolve("lib")).isDirectoryContaining("glob:**/spring-boot-*.jar")
                .isDirectoryContaining("glob:**/camel-core-engine-*.jar");
        assertThat(ARCHIVE).isRegularFile();

        // -Xshare:on: an archive of another JVM build or of other jar files is an error, not a silent slow start
        Run run = java("-Xshare:on", "-XX:SharedArchiveFile=" + ARCHIVE, "-XX:+PrintSharedArchiveAndExit",
                "-jar", JAR.toString());

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(
                " org.springframework.boot.SpringApplication ",
                " org.springframework.context.support.AbstractApplicationContext ",
                " org.apache.camel.impl.engine.AbstractCamelContext ",
                " org.apache.activemq.artemis.core.server.impl.ActiveMQServerImpl ",
                " com.zaxxer.hikari.HikariDataSource ",
                " io.hawt.HawtioContextListener ",
                " io.legacygateway.relay.OutboxRelayTemplate ",
                // loaded after the context's refresh, while the routes start: the training start runs until ready
                " org.apache.camel.reifier.ProcessorReifier ",
                " org.snakeyaml.engine.v2.parser.ParserImpl ");
    }

    @Test
    void theJarStartsWithItsClassesMappedFromTheArchive() throws Exception {
        Run run = java("-Xshare:on", "-XX:SharedArchiveFile=" + ARCHIVE, "-Xlog:class+load=info", "-jar",
                JAR.toString(), "help");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(
                "io.legacygateway.GatewayApplication source: shared objects file (top)",
                "io.legacygateway.cli.GatewayCli source: shared objects file (top)");
    }

    private record Run(int exitCode, String output) {
    }

    private static Run java(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("java exited").isTrue();
        return new Run(process.exitValue(), output);
    }
}
