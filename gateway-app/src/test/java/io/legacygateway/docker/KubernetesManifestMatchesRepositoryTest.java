package io.legacygateway.docker;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.StandaloneArtemis;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.core.io.FileSystemResource;
import org.yaml.snakeyaml.Yaml;

/**
 * No cluster runs in CI, so {@code docker/kubernetes.yaml} is never applied there. This test checks what it relies on
 * instead: its probes ask health groups the application defines (liveness and readiness, with the readiness group's
 * database and broker checks), on the port the gateway listens on; the image it names and the user it runs as are
 * those Maven builds (Jib's configuration in gateway-app/pom.xml); the grace period covers the preStop pause and both
 * graceful shutdowns, so that a relay cycle under way is never killed; and each pod is one XA transaction node, its
 * name the node id and its own volume the transaction log.
 */
class KubernetesManifestMatchesRepositoryTest {

    static final Path ROOT = StandaloneArtemis.repositoryRoot();

    final List<Map<String, Object>> documents = documents(ROOT.resolve("docker/kubernetes.yaml"));
    final Map<String, Object> statefulSet = kind("StatefulSet");
    final Map<String, Object> pod = map(map(map(statefulSet.get("spec")).get("template")).get("spec"));
    final Map<String, Object> gateway = map(list(pod.get("containers")).get(0));
    final Properties application = yamlProperties(ROOT.resolve("gateway-app/src/main/resources/application.yml"));
    final Properties prod = yamlProperties(ROOT.resolve("docker/application-prod.yml"));

    @Test
    void theProbesAskTheActuatorsHealthGroupsOnTheGatewaysPort() {
        assertThat(application.getProperty("management.endpoint.health.probes.enabled"))
                .as("the liveness and readiness groups exist").isEqualTo("true");
        assertThat(application.getProperty("management.endpoint.health.group.readiness.include"))
                .as("ready = databases and broker answer").contains("readinessState", "gatewayDatabases", "broker");
        assertThat(application.getProperty("management.endpoint.health.group.liveness.include"))
                .as("liveness stays livenessState only: an outage must not restart the pod").isNull();
        assertThat(path("readinessProbe")).isEqualTo(DockerComposeMatchesRepositoryTest.readinessPath());
        assertThat(path("livenessProbe")).isEqualTo("/actuator/health/liveness");
        assertThat(path("startupProbe")).isEqualTo("/actuator/health/liveness");

        int serverPort = Integer.parseInt(prod.getProperty("server.port", "8080"));
        Map<String, Object> port = map(list(gateway.get("ports")).get(0));
        assertThat(port.get("containerPort")).isEqualTo(serverPort);
        for (String probe : List.of("readinessProbe", "livenessProbe", "startupProbe")) {
            assertThat(map(map(gateway.get(probe)).get("httpGet")).get("port")).as(probe)
                    .isEqualTo(port.get("name"));
        }
    }

    @Test
    void itRunsTheImageMavenBuildsAsItsNonRootUser() throws Exception {
        String pom = Files.readString(ROOT.resolve("gateway-app/pom.xml"));
        String version = DockerComposeMatchesRepositoryTest.projectVersion();
        assertThat(pom).contains("<gateway.image.name>legacy-gateway:${project.version}</gateway.image.name>")
                .contains("<user>10001:10001</user>").contains("<workingDirectory>/opt/gateway</workingDirectory>");
        assertThat(gateway.get("image")).isEqualTo("legacy-gateway:" + version);
        Map<String, Object> security = map(pod.get("securityContext"));
        assertThat(security).containsEntry("runAsNonRoot", true).containsEntry("runAsUser", 10001)
                .containsEntry("runAsGroup", 10001);
        // Spring Boot reads ./config/ of the working directory; the default include pattern reads ./routes/outbox/
        assertThat(mountPaths()).contains("/opt/gateway/config", "/opt/gateway/routes/outbox", "/tmp");
        assertThat(application.getProperty("camel.main.routes-include-pattern")).contains("file:routes/outbox/");
        assertThat(env("SPRING_PROFILES_ACTIVE")).containsEntry("value", "prod");
        assertThat(map(map(gateway.get("resources")).get("limits"))).as("the heap is 75 % of it")
                .containsKey("memory");
    }

    @Test
    void theGracePeriodLetsARelayCycleFinish() {
        long preStop = Long.parseLong(String.valueOf(list(map(map(map(gateway.get("lifecycle")).get("preStop"))
                .get("exec")).get("command")).get(1)));
        assertThat(prod.getProperty("server.shutdown")).isEqualTo("graceful");
        // Spring Boot's default phase timeout; neither configuration changes it
        long webDrain = Duration.ofSeconds(30).toSeconds();
        assertThat(application.getProperty("spring.lifecycle.timeout-per-shutdown-phase")).isNull();
        assertThat(prod.getProperty("spring.lifecycle.timeout-per-shutdown-phase")).isNull();
        long camel = Long.parseLong(application.getProperty("camel.main.shutdown-timeout"));
        assertThat(((Number) pod.get("terminationGracePeriodSeconds")).longValue())
                .isGreaterThan(preStop + webDrain + camel);
    }

    @Test
    void eachPodIsOneTransactionNodeWithItsOwnLog() {
        assertThat(map(statefulSet.get("spec")).get("serviceName")).isEqualTo(name(kind("Service")));
        assertThat(map(kind("Service").get("spec"))).containsEntry("clusterIP", "None");
        assertThat(env("GATEWAY_TRANSACTIONS_NODE_ID")).as("the pod's stable name is its node id")
                .isEqualTo(Map.of("valueFrom", Map.of("fieldRef", Map.of("fieldPath", "metadata.name"))));
        // a pod name of the set: its name, a dash, an ordinal; within the node id's 28 characters
        assertThat(name(statefulSet) + "-99").matches("[A-Za-z0-9._-]{1,28}");
        String logDir = (String) env("GATEWAY_TRANSACTIONS_LOG_DIR").get("value");
        String claim = name(map(list(map(statefulSet.get("spec")).get("volumeClaimTemplates")).get(0)));
        assertThat(list(gateway.get("volumeMounts"))).as("the log on the pod's own volume claim")
                .contains(Map.of("name", claim, "mountPath", logDir));
        assertThat(map(pod.get("securityContext"))).as("the volume writable by the gateway")
                .containsEntry("fsGroup", 10001);
    }

    private String path(String probe) {
        return (String) map(map(gateway.get(probe)).get("httpGet")).get("path");
    }

    private Map<String, Object> env(String name) {
        for (Object variable : list(gateway.get("env"))) {
            Map<String, Object> v = map(variable);
            if (name.equals(v.get("name"))) {
                Map<String, Object> rest = new java.util.LinkedHashMap<>(v);
                rest.remove("name");
                return rest;
            }
        }
        throw new AssertionError("no environment variable " + name);
    }

    private List<String> mountPaths() {
        List<String> paths = new ArrayList<>();
        list(gateway.get("volumeMounts")).forEach(m -> paths.add((String) map(m).get("mountPath")));
        return paths;
    }

    private Map<String, Object> kind(String kind) {
        return documents.stream().filter(d -> kind.equals(d.get("kind"))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind));
    }

    private static String name(Map<String, Object> object) {
        return (String) map(object.get("metadata")).get("name");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> documents(Path file) {
        List<Map<String, Object>> documents = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            new Yaml().loadAll(in).forEach(d -> documents.add((Map<String, Object>) d));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return documents;
    }

    private static Properties yamlProperties(Path file) {
        YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
        yaml.setResources(new FileSystemResource(file));
        return yaml.getObject();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        return (List<Object>) o;
    }
}
