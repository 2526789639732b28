package io.legacygateway.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneArtemisPair;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.net.URI;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.FileSystemResource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.yaml.snakeyaml.Yaml;

/**
 * No Docker engine runs in CI, so {@code docker/compose.yaml} is never started there. This test checks instead that
 * what it refers to exists and agrees with the repository and the application's configuration: mounted files, the
 * image Maven builds (-Pimage, Jib's configuration in gateway-app/pom.xml; ImageTarIT checks the image itself), ports, the broker pair's HA files and the gateways' client URL to it, the gateways'
 * environment variables, the broker account, the shared database, the route folders of the include pattern; and that
 * the file is valid for Compose v2 and docker-compose v1 (their schemas).
 * Compose variables are interpolated as compose would: {@code ${X:-default}} gives the default, {@code ${X}} and
 * {@code ${X:?message}} (which the operator must set) give {@code value-of-X}.
 */
class DockerComposeMatchesRepositoryTest {

    static final Path ROOT = StandaloneArtemis.repositoryRoot();
    static final Path DOCKER = ROOT.resolve("docker");
    static final Pattern COMPOSE_VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?}");
    static final Pattern SPRING_PLACEHOLDER = Pattern.compile("\\$\\{([^}:]+)(?::[^}]*)?}");

    final Map<String, Object> compose = yaml(DOCKER.resolve("compose.yaml"));
    final Map<String, Object> services = map(compose.get("services"));
    final List<String> gateways = services.keySet().stream().filter(s -> s.startsWith("gateway")).toList();
    /** The jib-maven-plugin's configuration of gateway-app/pom.xml, which builds the gateways' image. */
    final Element jib = jibConfiguration();

    /** The brokers of compose.yaml and the HA file of artemis-config/ each one runs with. */
    static final Map<String, String> BROKERS = new LinkedHashMap<>();

    static {
        BROKERS.put("artemis-primary", "ha/broker-primary.xml");
        BROKERS.put("artemis-backup", "ha/broker-backup.xml");
    }

    @Test
    void twoGatewaysPostgresAndTheBrokerPairAreDefined() {
        assertThat(gateways).containsExactly("gateway-1", "gateway-2");
        assertThat(services).containsKeys("postgres", "artemis-primary", "artemis-backup")
                .doesNotContainKey("artemis");
        for (String gateway : gateways) {
            assertThat(service(gateway)).as(gateway + ": the image Maven builds, not a build of its own")
                    .doesNotContainKey("build");
            assertThat(map(service(gateway).get("depends_on"))).containsKeys("postgres", "artemis-primary",
                    "artemis-backup");
        }
        assertThat(map(service("artemis-backup").get("depends_on"))).as("the backup starts after the primary")
                .containsOnlyKeys("artemis-primary");
    }

    @Test
    void everyMountedFileAndDirectoryExists() {
        Set<String> namedVolumes = map(compose.get("volumes")).keySet();
        int bindMounts = 0;
        for (String name : services.keySet()) {
            for (Object volume : list(service(name).get("volumes"))) {
                String source = ((String) volume).split(":")[0];
                if (source.startsWith(".") || source.startsWith("/")) {
                    assertThat(DOCKER.resolve(source).normalize()).as(name + " mounts " + volume).exists();
                    assertThat(DOCKER.resolve(source).normalize()).as(name + " mounts inside the repository")
                            .startsWith(ROOT);
                    bindMounts++;
                } else {
                    assertThat(namedVolumes).as(name + " volume " + source + " is declared").contains(source);
                }
            }
        }
        assertThat(bindMounts).isEqualTo(2 * 3 + 2 * 2);
        // the gateways' routes directory holds a route the default profile loads (routes/outbox/*.yaml)
        assertThat(DOCKER.resolve("routes/outbox/sales-outbox.yaml")).exists();
    }

    /**
     * Every pattern of {@code camel.main.routes-include-pattern} as the gateways see it (application.yml unless the
     * prod configuration overrides it) resolves, from the image's working directory through the bind mounts, to
     * a folder of the repository; together they find the sales relay. A folder that is missing would add no route
     * (RouteFolders), but in compose every folder of the default pattern is there.
     */
    @Test
    void everyRouteIncludePatternResolvesThroughTheMountsToAFolderOfTheRepository() throws Exception {
        String workdir = jib("container", "workingDirectory");
        for (String gateway : gateways) {
            String patterns = gatewayEnvironment(gateway).getProperty("camel.main.routes-include-pattern");
            assertThat(patterns).as(gateway + " include pattern").isNotBlank();
            List<String> found = new ArrayList<>();
            for (String pattern : patterns.split(",")) {
                assertThat(pattern.trim()).as(gateway + " loads routes from files").startsWith("file:");
                Path inContainer = Path.of(workdir).resolve(pattern.trim().substring("file:".length()));
                Path folder = hostPath(gateway, inContainer.getParent());
                assertThat(folder).as(gateway + ": " + pattern + " in a mounted folder").isNotNull();
                assertThat(folder).as(gateway + ": " + pattern + " resolves to a folder of the repository")
                        .isDirectory().startsWith(ROOT);
                try (DirectoryStream<Path> files = Files.newDirectoryStream(folder,
                        inContainer.getFileName().toString())) {
                    files.forEach(f -> found.add(ROOT.relativize(f).toString()));
                }
            }
            assertThat(found).as(gateway + " routes").contains("docker/routes/outbox/sales-outbox.yaml");
        }
    }

    /** The host path a gateway container sees at {@code inContainer}, through its bind mounts; null if none. */
    private Path hostPath(String gateway, Path inContainer) {
        for (Object volume : list(service(gateway).get("volumes"))) {
            String[] parts = ((String) volume).split(":");
            Path target = Path.of(parts[1]);
            if (parts[0].startsWith(".") && inContainer.startsWith(target)) {
                return DOCKER.resolve(parts[0]).resolve(target.relativize(inContainer).toString()).normalize();
            }
        }
        return null;
    }

    /**
     * The file is valid for both Compose implementations: Docker Compose v2 validates with the Compose Specification's
     * schema, docker-compose v1 (1.27 to 1.29.2) with its own compose_spec.json (no top-level {@code name}). Copies of
     * both, unchanged, are test resources ({@code compose-schema/README.md} says where from). No Docker engine runs
     * here; this is what {@code docker compose config} would check first.
     */
    @Test
    void theComposeFileValidatesAgainstTheSchemasOfComposeV2AndDockerComposeV1() throws Exception {
        JsonNode file = new ObjectMapper().valueToTree(compose);
        for (String schema : SCHEMAS.keySet()) {
            assertThat(schema(schema).validate(file)).as("compose.yaml against " + schema).isEmpty();
        }
        // the validation is real: v1 refuses what only v2 knows
        Map<String, Object> withName = new LinkedHashMap<>(compose);
        withName.put("name", "legacy-gateway");
        assertThat(schema("docker-compose-1.29.2-compose_spec.json").validate(new ObjectMapper().valueToTree(withName)))
                .as("a top-level name in docker-compose v1").isNotEmpty();
    }

    /**
     * Each schema with the draft its tool applies: the Compose Specification declares draft-07; docker-compose v1
     * validates with a draft-4 validator (Python jsonschema's Draft4Validator), whatever its file declares (2019-09,
     * with draft-4 {@code id}s), and checks the formats {@code ports} and {@code expose} only (its {@code duration} is
     * Go's "5s", not ISO 8601): its formats are not asserted here, the ports are checked by
     * {@link #portsAgreeBetweenComposeTheImageTheGatewayAndTheBroker()}.
     */
    static final Map<String, SpecVersion.VersionFlag> SCHEMAS = Map.of(
            "compose-spec.json", SpecVersion.VersionFlag.V7,
            "docker-compose-1.29.2-compose_spec.json", SpecVersion.VersionFlag.V4);

    private static JsonSchema schema(String name) throws IOException {
        String resource = "compose-schema/" + name;
        SpecVersion.VersionFlag draft = SCHEMAS.get(name);
        try (InputStream in = new ClassPathResource(resource).getInputStream()) {
            ObjectNode schema = (ObjectNode) new ObjectMapper().readTree(in);
            schema.put("$schema", draft.getId());
            SchemaValidatorsConfig config = SchemaValidatorsConfig.builder()
                    .formatAssertionsEnabled(draft != SpecVersion.VersionFlag.V4).build();
            return JsonSchemaFactory.getInstance(draft).getSchema(URI.create("classpath:" + resource), schema, config);
        }
    }

    /**
     * Each broker of the pair runs with its HA file of {@code artemis-config/ha/} as its broker.xml (the files exist,
     * and are the primary and the backup of a replicated pair), the repository's users and roles, the broker version
     * the tests run, and one replication password that the operator must set.
     */
    @Test
    void theBrokerPairGetsTheRepositorysHaConfiguration() throws Exception {
        String artemisVersion = Path.of(System.getProperty("artemis.home", "apache-artemis-2.40.0")).getFileName()
                .toString().replace("apache-artemis-", "");
        Set<Object> clusterPasswords = new HashSet<>();
        for (Map.Entry<String, String> broker : BROKERS.entrySet()) {
            String name = broker.getKey();
            Path haFile = ROOT.resolve("artemis-config").resolve(broker.getValue());
            assertThat(haFile).as(name + "'s HA file").exists();
            List<String> mounts = list(service(name).get("volumes")).stream().map(String.class::cast).toList();
            // the image copies /var/lib/artemis-instance/etc-override/* into etc/ when it creates the instance
            assertThat(mounts).as(name + " mounts").contains(
                    "../artemis-config/" + broker.getValue() + ":/var/lib/artemis-instance/etc-override/broker.xml:ro");
            for (String file : List.of("artemis-users.properties", "artemis-roles.properties")) {
                assertThat(mounts).as(name + " mounts").contains("../artemis-config/" + file
                        + ":/var/lib/artemis-instance/etc-override/" + file + ":ro");
            }
            assertThat(service(name).get("image")).as("the broker version the tests run")
                    .isEqualTo("apache/activemq-artemis:" + artemisVersion);

            Element replication = (Element) xml(haFile).getElementsByTagName("replication").item(0);
            assertThat(replication).as(name + ": HA policy replication").isNotNull();
            String role = name.substring("artemis-".length());
            assertThat(replication.getElementsByTagName(role).getLength()).as(name + " is the pair's " + role)
                    .isEqualTo(1);
            assertThat(xml(haFile).getElementsByTagName("cluster-password").item(0).getTextContent())
                    .startsWith("${ARTEMIS_CLUSTER_PASSWORD:");
            Object password = map(service(name).get("environment")).get("ARTEMIS_CLUSTER_PASSWORD");
            assertThat(String.valueOf(password)).as(name + ": the operator must set the replication password")
                    .startsWith("${ARTEMIS_CLUSTER_PASSWORD:?");
            clusterPasswords.add(password);
        }
        assertThat(clusterPasswords).as("one replication password for both brokers").hasSize(1);
    }

    @Test
    void theGatewaysRunTheImageMavenBuildsAsNonRoot() throws Exception {
        Document pom = xml(ROOT.resolve("gateway-app/pom.xml"));
        String finalName = pom.getElementsByTagName("finalName").item(0).getTextContent().trim();
        String version = projectVersion();
        for (String gateway : gateways) {
            // docker load -i gateway-app/target/gateway-app-image.tar gives this name (Jib's <to>)
            assertThat(interpolate((String) service(gateway).get("image"))).as(gateway + " image")
                    .isEqualTo(jib("to", "image")).endsWith(":" + version);
            assertThat(list(service(gateway).get("volumes")))
                    .contains("./application-prod.yml:/opt/gateway/config/application-prod.yml:ro",
                            "./routes:/opt/gateway/routes:ro");
        }
        assertThat(jib("to", "image")).startsWith("legacy-gateway:");
        assertThat(jib("container", "user")).isEqualTo("10001:10001");
        // Spring Boot reads ./config/ of the working directory, where compose mounts application-prod.yml
        assertThat(jib("container", "workingDirectory")).isEqualTo("/opt/gateway");
        assertThat(jibList("container", "entrypoint")).containsSubsequence("-jar",
                "app/" + finalName + ".jar");
    }

    @Test
    void portsAgreeBetweenComposeTheImageTheGatewayAndTheBroker() throws Exception {
        for (String gateway : gateways) {
            StandardEnvironment env = gatewayEnvironment(gateway);
            int serverPort = env.getProperty("server.port", Integer.class, 8080);
            for (Object mapping : list(service(gateway).get("ports"))) {
                String[] parts = ((String) mapping).split(":");
                assertThat(Integer.parseInt(parts[parts.length - 1])).as(gateway + " port " + mapping)
                        .isEqualTo(serverPort);
            }
            assertThat(jibList("container", "ports")).contains(String.valueOf(serverPort));
            // the health check asks the readiness group on the gateway's port (ImageTarIT runs it in the image)
            assertThat(String.valueOf(map(service(gateway).get("healthcheck")).get("test")))
                    .contains("/dev/tcp/127.0.0.1/" + serverPort + " ")
                    .contains("GET " + readinessPath() + " HTTP/1.0");

            // the pair's client URL: both brokers, each at its acceptor's port, and the client follows the active one
            String url = env.getProperty("spring.artemis.broker-url");
            Matcher ha = Pattern.compile("^\\((.+)\\)\\?(.+)$").matcher(url);
            assertThat(ha.matches()).as(gateway + " broker URL (servers)?options: " + url).isTrue();
            List<String> hosts = new ArrayList<>();
            for (String server : ha.group(1).split(",")) {
                URI broker = URI.create(server.trim());
                assertThat(broker.getScheme()).isEqualTo("tcp");
                hosts.add(broker.getHost());
                assertThat(broker.getPort()).as(gateway + ": " + broker.getHost() + "'s port = its acceptor's port")
                        .isEqualTo(artemisAcceptorPort(broker.getHost()));
            }
            assertThat(hosts).as(gateway + " brokers").containsExactlyElementsOf(BROKERS.keySet());
            assertThat(ha.group(2).split("&")).as(gateway + " client options")
                    .contains("ha=true", "reconnectAttempts=-1", "initialConnectAttempts=-1");
            assertThat(ha.group(2)).as(gateway + " client options: those the failover tests measured")
                    .isEqualTo(StandaloneArtemisPair.CLIENT_OPTIONS);
        }
        for (String broker : BROKERS.keySet()) {
            String javaArgs = (String) map(service(broker).get("environment")).get("JAVA_ARGS_APPEND");
            assertThat(javaArgs).as("the HA files bind to ${artemis.host:127.0.0.1}: the container must listen on"
                    + " all interfaces").contains("-Dartemis.host=0.0.0.0");
            // the connectors each broker announces to clients and to its peer: the services' names and ports
            for (String peer : BROKERS.keySet()) {
                String role = peer.substring("artemis-".length());
                assertThat(javaArgs).as(broker + " names where " + peer + " is")
                        .contains("-Dartemis." + role + ".host=" + peer)
                        .contains("-Dartemis." + role + ".port=" + artemisAcceptorPort(peer));
            }
            assertThat(String.valueOf(map(service(broker).get("healthcheck")).get("test")))
                    .contains("/" + artemisAcceptorPort(broker));
        }
    }

    /**
     * Every variable a gateway container sets is a real setting: a placeholder of the mounted application-prod.yml,
     * a key of Spring Boot's configuration metadata, or a {@code gateway.*} key that binds to
     * {@link GatewayProperties} (unknown {@code gateway.*} names fail the binding, as at startup).
     */
    @Test
    void everyEnvironmentVariableOfTheGatewaysIsARealSetting() throws Exception {
        String prodYml = read(DOCKER.resolve("application-prod.yml"));
        Set<String> placeholders = new HashSet<>();
        Matcher m = SPRING_PLACEHOLDER.matcher(prodYml);
        while (m.find()) {
            placeholders.add(m.group(1));
        }
        Map<String, Boolean> springKeys = springMetadataEnvironmentNames();
        for (String gateway : gateways) {
            Map<String, Object> variables = environment(gateway);
            for (String name : variables.keySet()) {
                boolean placeholder = placeholders.contains(name);
                boolean springKey = springKeys.containsKey(name) || springKeys.entrySet().stream()
                        .anyMatch(e -> e.getValue() && name.startsWith(e.getKey() + "_"));
                boolean gatewayKey = name.startsWith("GATEWAY_");
                assertThat(placeholder || springKey || gatewayKey)
                        .as(gateway + " sets " + name + ", which is no placeholder of application-prod.yml and no"
                                + " configuration key").isTrue();
            }
            assertThat(variables.keySet()).as(gateway + " provides every placeholder of application-prod.yml")
                    .containsAll(placeholders);

            StandardEnvironment env = gatewayEnvironment(gateway);
            GatewayProperties properties = bindGateway(env);
            assertThat(properties.security().users()).containsKey("operator");
            assertThat(properties.security().users().get("operator").roles())
                    .containsExactly(io.legacygateway.config.GatewaySecurityProperties.Role.OPERATOR);
            properties.security().verify();
            assertThat(properties.security().shortPasswordsAccepted()).isFalse();
            assertThat(env.getProperty("spring.profiles.active")).isEqualTo("prod");
        }
    }

    /** The check above would catch a misspelt variable: binding fails naming it, as the gateway's startup does. */
    @Test
    void aMisspeltGatewayVariableFailsTheBinding() throws Exception {
        Map<String, Object> variables = new LinkedHashMap<>(environment("gateway-1"));
        variables.put("GATEWAY_SECURITY_USERS_OPERATOR_PASSWROD", "a-long-enough-secret");
        assertThatThrownBy(() -> bindGateway(gatewayEnvironment(variables)))
                .hasStackTraceContaining("gateway.security.users.operator.passwrod");
    }

    private static GatewayProperties bindGateway(StandardEnvironment env) {
        return Binder.get(env).bind("gateway", Bindable.of(GatewayProperties.class),
                new NoUnboundElementsBindHandler(BindHandler.DEFAULT)).get();
    }

    @Test
    void theGatewaysBrokerAccountExistsWithItsPasswordAndMaySendAndConsume() throws Exception {
        for (String haFile : BROKERS.values()) {
            theGatewaysBrokerAccountMaySendAndConsume(ROOT.resolve("artemis-config").resolve(haFile));
        }
    }

    private void theGatewaysBrokerAccountMaySendAndConsume(Path brokerXml) throws Exception {
        Properties users = properties(ROOT.resolve("artemis-config/artemis-users.properties"));
        Properties roles = properties(ROOT.resolve("artemis-config/artemis-roles.properties"));
        Set<String> sendRoles = Set.of(permissionRoles(brokerXml, "send"));
        Set<String> consumeRoles = Set.of(permissionRoles(brokerXml, "consume"));
        for (String gateway : gateways) {
            StandardEnvironment env = gatewayEnvironment(gateway);
            String user = env.getProperty("spring.artemis.user");
            assertThat(users.getProperty(user)).as(gateway + " broker user " + user + " in artemis-users.properties")
                    .isEqualTo(env.getProperty("spring.artemis.password"));
            List<String> userRoles = roles.stringPropertyNames().stream()
                    .filter(r -> List.of(roles.getProperty(r).split(",")).stream().map(String::trim)
                            .anyMatch(user::equals)).toList();
            assertThat(userRoles).as(user + "'s roles may send").anyMatch(sendRoles::contains);
            assertThat(userRoles).as(user + "'s roles may consume").anyMatch(consumeRoles::contains);
        }
    }

    @Test
    void bothGatewaysShareTheDatabaseAndTheBroker() throws Exception {
        Map<String, Object> postgres = environment("postgres");
        List<String> datasourceUrls = new ArrayList<>();
        for (String gateway : gateways) {
            StandardEnvironment env = gatewayEnvironment(gateway);
            String url = env.getProperty("gateway.datasources.sales.url");
            datasourceUrls.add(url + " " + env.getProperty("spring.artemis.broker-url"));
            URI jdbc = URI.create(url.substring("jdbc:".length()));
            assertThat(jdbc.getHost()).isEqualTo("postgres");
            assertThat(jdbc.getPort()).isEqualTo(5432);
            assertThat(jdbc.getPath()).isEqualTo("/" + postgres.get("POSTGRES_DB"));
            assertThat(env.getProperty("gateway.datasources.sales.username")).isEqualTo(postgres.get("POSTGRES_USER"));
            assertThat(env.getProperty("gateway.datasources.sales.password")).isEqualTo(postgres.get("POSTGRES_PASSWORD"));
        }
        assertThat(new HashSet<>(datasourceUrls)).as("one database and one broker for both").hasSize(1);
        assertThat(environment("gateway-2")).isEqualTo(environment("gateway-1"));
        assertThat(service("gateway-2").get("volumes")).isEqualTo(service("gateway-1").get("volumes"));
    }

    /** The gateway's configuration as the container sees it: its environment, then application-prod.yml, then application.yml. */
    private StandardEnvironment gatewayEnvironment(String gateway) throws IOException {
        return gatewayEnvironment(environment(gateway));
    }

    /** @param variables replace the machine's environment (same source name, so Spring maps names as it does there) */
    private static StandardEnvironment gatewayEnvironment(Map<String, Object> variables) throws IOException {
        StandardEnvironment env = new StandardEnvironment();
        MutablePropertySources sources = env.getPropertySources();
        sources.remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        sources.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
        YamlPropertySourceLoader yaml = new YamlPropertySourceLoader();
        for (PropertySource<?> s : yaml.load("application-prod.yml", new FileSystemResource(DOCKER.resolve("application-prod.yml")))) {
            sources.addLast(s);
        }
        for (PropertySource<?> s : yaml.load("application.yml", new ClassPathResource("application.yml"))) {
            sources.addLast(s);
        }
        ConfigurationPropertySources.attach(env);
        return env;
    }

    /** The service's environment after compose interpolation. */
    private Map<String, Object> environment(String service) {
        Map<String, Object> resolved = new LinkedHashMap<>();
        map(service(service).get("environment")).forEach((k, v) -> resolved.put(k, interpolate(String.valueOf(v))));
        return resolved;
    }

    static String interpolate(String value) {
        Matcher m = COMPOSE_VARIABLE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = ":-".equals(m.group(2)) || "-".equals(m.group(2)) ? m.group(3) : "value-of-" + m.group(1);
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        return m.appendTail(out).toString();
    }

    /** Environment-variable forms of every key in Spring Boot's metadata, true for map-valued keys. */
    private static Map<String, Boolean> springMetadataEnvironmentNames() throws IOException {
        Map<String, Boolean> names = new LinkedHashMap<>();
        ObjectMapper json = new ObjectMapper();
        for (URL url : Collections.list(DockerComposeMatchesRepositoryTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
            try (InputStream in = url.openStream()) {
                for (JsonNode p : json.readTree(in).path("properties")) {
                    String env = p.path("name").asText().replace(".", "_").replace("-", "").toUpperCase();
                    names.merge(env, p.path("type").asText().startsWith("java.util.Map"), Boolean::logicalOr);
                }
            }
        }
        assertThat(names).as("Spring Boot metadata found").containsKeys("SPRING_PROFILES_ACTIVE", "SERVER_PORT");
        return names;
    }

    /** The port a broker service of compose.yaml listens on: its HA file's acceptor, with the service's -Dartemis.port. */
    private int artemisAcceptorPort(String broker) throws Exception {
        assertThat(BROKERS).as("a broker service").containsKey(broker);
        NodeList acceptors = xml(ROOT.resolve("artemis-config").resolve(BROKERS.get(broker)))
                .getElementsByTagName("acceptor");
        assertThat(acceptors.getLength()).isEqualTo(1);
        Matcher port = Pattern.compile(":\\$\\{artemis\\.port:(\\d+)}").matcher(acceptors.item(0).getTextContent());
        assertThat(port.find()).as("acceptor port ${artemis.port:N}").isTrue();
        int defaultPort = Integer.parseInt(port.group(1));
        Matcher override = Pattern.compile("-Dartemis\\.port=(\\d+)").matcher(String.valueOf(
                map(service(broker).get("environment")).get("JAVA_ARGS_APPEND")));
        return override.find() ? Integer.parseInt(override.group(1)) : defaultPort;
    }

    /** Roles that the broker configuration grants the permission on every address ({@code match="#"}). */
    private static String[] permissionRoles(Path brokerXml, String type) throws Exception {
        NodeList settings = xml(brokerXml).getElementsByTagName("security-setting");
        for (int i = 0; i < settings.getLength(); i++) {
            Element setting = (Element) settings.item(i);
            if (!"#".equals(setting.getAttribute("match"))) {
                continue;
            }
            NodeList permissions = setting.getElementsByTagName("permission");
            for (int j = 0; j < permissions.getLength(); j++) {
                Element p = (Element) permissions.item(j);
                if (type.equals(p.getAttribute("type"))) {
                    return p.getAttribute("roles").split("\\s*,\\s*");
                }
            }
        }
        throw new AssertionError(brokerXml + " grants no '" + type + "' on '#'");
    }

    private Map<String, Object> service(String name) {
        assertThat(services).containsKey(name);
        return map(services.get(name));
    }

    @SuppressWarnings("unchecked")
    /** The path of the actuator's readiness group, which both compose's health check and Kubernetes probe. */
    static String readinessPath() {
        return "/actuator/health/readiness";
    }

    private static Element jibConfiguration() {
        try {
            NodeList plugins = xml(ROOT.resolve("gateway-app/pom.xml")).getElementsByTagName("plugin");
            for (int i = 0; i < plugins.getLength(); i++) {
                Element plugin = (Element) plugins.item(i);
                if (child(plugin, "artifactId").getTextContent().trim().equals("jib-maven-plugin")) {
                    return child(plugin, "configuration");
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        throw new AssertionError("gateway-app/pom.xml configures no jib-maven-plugin");
    }

    private String jib(String... path) {
        Element at = jib;
        for (String name : path) {
            at = child(at, name);
        }
        return resolve(at.getTextContent().trim());
    }

    /** A value of gateway-app/pom.xml with its ${properties} (the profile's, project.version) put in. */
    private static String resolve(String value) {
        Matcher m = Pattern.compile("\\$\\{([^}]+)}").matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(resolve(pomProperty(m.group(1)))));
        }
        return m.appendTail(out).toString();
    }

    private static String pomProperty(String name) {
        try {
            if (name.equals("project.version")) {
                return projectVersion();
            }
            if (name.equals("project.build.finalName")) {
                return xml(ROOT.resolve("gateway-app/pom.xml")).getElementsByTagName("finalName").item(0)
                        .getTextContent().trim();
            }
            NodeList found = xml(ROOT.resolve("gateway-app/pom.xml")).getElementsByTagName(name);
            assertThat(found.getLength()).as("gateway-app/pom.xml property " + name).isEqualTo(1);
            return found.item(0).getTextContent().trim();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private List<String> jibList(String... path) {
        Element at = jib;
        for (String name : path) {
            at = child(at, name);
        }
        List<String> values = new ArrayList<>();
        for (org.w3c.dom.Node n = at.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                values.add(resolve(e.getTextContent().trim()));
            }
        }
        return values;
    }

    private static Element child(Element parent, String name) {
        for (org.w3c.dom.Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        throw new AssertionError(parent.getTagName() + " has no " + name);
    }

    static String projectVersion() throws Exception {
        return child(xml(ROOT.resolve("pom.xml")).getDocumentElement(), "version").getTextContent().trim();
    }

    private static Map<String, Object> map(Object o) {
        return o == null ? Map.of() : (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        return o == null ? List.of() : (List<Object>) o;
    }

    private static Map<String, Object> yaml(Path file) {
        try (Reader reader = Files.newBufferedReader(file)) {
            return new Yaml().load(reader);
        } catch (IOException e) {
            throw new AssertionError("cannot read " + file, e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new AssertionError("cannot read " + file, e);
        }
    }

    private static Document xml(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(file.toFile());
    }

    private static Properties properties(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            p.load(reader);
        }
        return p;
    }
}
