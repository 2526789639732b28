package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.GatewayApplication;
import io.legacygateway.testsupport.GatewayProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway whose relays are all LOCAL (the default) loads nothing of Narayana: no transaction manager, no object
 * store, no recovery thread, as before XA existed. Checked on the JVM's class-loading log of a gateway process that ran
 * a relay.
 */
class LocalRelayStartsNoTransactionManagerTest {

    @TempDir
    Path workDir;

    @Test
    void aGatewayWithALocalRelayLoadsNoNarayanaClassAndWritesNoObjectStore() throws Exception {
        Path routes = Files.createDirectories(workDir.resolve("routes"));
        Files.writeString(routes.resolve("local.yaml"), String.join("\n",
                "- templatedRoute:",
                "    routeTemplateRef: outbox-relay",
                "    routeId: outbox-relay-local",
                "    parameters:",
                "      - { name: relay, value: local }",
                "      - { name: dataSource, value: legacy }",
                "      - { name: destination, value: 'queue:it.local' }", ""));
        GatewayProcess.Running gateway = GatewayProcess.start(GatewayApplication.class, workDir,
                "--spring.profiles.active=test",
                "--gateway.datasources.legacy.url=jdbc:h2:mem:local-relay;DB_CLOSE_DELAY=-1",
                "--gateway.datasources.legacy.username=sa",
                "--gateway.datasources.legacy.initialize-schema=true",
                "--camel.main.routes-include-pattern=file:" + routes + "/*.yaml");
        List<String> classes;
        try {
            Awaitility.await("the gateway started its relay").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> !gateway.alive() || gateway.output().contains("Started GatewayApplication"));
            assertThat(gateway.output()).contains("Outbox relay 'local'").contains("transactions LOCAL");
        } finally {
            classes = gateway.stop();
        }
        assertThat(classes).as("classes loaded").isNotEmpty()
                .noneMatch(c -> c.startsWith("com.arjuna.") || c.startsWith("org.jboss.tm."));
        try (Stream<Path> files = Files.walk(workDir)) {
            assertThat(files.map(Path::getFileName).map(Path::toString)).as("no Narayana object store")
                    .doesNotContain("ObjectStore", "ShadowNoFileLockStore", "PutObjectStoreDirHere");
        }
    }
}
