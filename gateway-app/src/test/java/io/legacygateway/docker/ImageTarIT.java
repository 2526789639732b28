package io.legacygateway.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The image {@code mvn package -Pimage} writes to {@code target/gateway-app-image.tar} (Jib, no Docker engine), read
 * as {@code docker load} would: its configuration (user, working directory, entrypoint, port, profile, labels) and its
 * layers (the runtime, the libraries, the gateway's jar and its class data sharing archive, in that order, each alone
 * in its layer, owned by root and not writable by the gateway's user). As root on Linux it also unpacks the layers
 * into a directory and runs the image's entrypoint there under chroot as the image's user, with {@code -Xshare:on}
 * (an archive the image's own JVM cannot use is then an error, not a silently slower start), until the readiness and
 * liveness groups that compose and Kubernetes probe answer UP, and compose's own health check, run in the image,
 * passes. Runs after {@code jib:buildTar} in -Pimage only; tag
 * {@code image} lets a run select it alone ({@code -Dgroups=image -Dgateway.tests.groups=image}, as {@code .ci/run}).
 */
@Tag("image")
class ImageTarIT {

    private static final Path TAR = Path.of(System.getProperty("gateway.image.tar",
            "target/gateway-app-image.tar")).toAbsolutePath();
    private static final Path REPO = Path.of(System.getProperty("gateway.repo.root", "..")).toAbsolutePath()
            .normalize();
    /** Jib's filesModificationTime (1970-01-01T00:00:01Z), which the archive's training start gave the jars too. */
    private static final long JIB_MTIME = 1;
    private static final List<String> OUR_LAYERS = List.of("extra files", "java runtime", "libraries", "gateway jar",
            "class data sharing archive");

    private static JsonNode config;
    /** The image's own layers by Jib's history comment, in order; the base image's come before them. */
    private static final Map<String, List<ImageTar.Entry>> LAYERS = new LinkedHashMap<>();
    private static int baseLayers;
    private static final Map<String, byte[]> BLOBS = new LinkedHashMap<>();
    private static List<String> layerFiles;

    @BeforeAll
    static void readTheTar() throws IOException {
        assertThat(TAR).as("built by jib:buildTar (-Pimage)").isRegularFile();
        Map<String, byte[]> files = ImageTar.files(TAR);
        ObjectMapper json = new ObjectMapper();
        JsonNode manifest = json.readTree(files.get("manifest.json")).get(0);
        config = json.readTree(files.get(manifest.get("Config").asText()));
        layerFiles = StreamSupport.stream(manifest.get("Layers").spliterator(), false).map(JsonNode::asText).toList();
        List<String> comments = StreamSupport.stream(config.get("history").spliterator(), false)
                .filter(h -> !h.path("empty_layer").asBoolean(false))
                .map(h -> h.path("comment").asText("")).toList();
        assertThat(comments).hasSameSizeAs(layerFiles);
        baseLayers = layerFiles.size() - OUR_LAYERS.size();
        for (int i = 0; i < layerFiles.size(); i++) {
            BLOBS.put(layerFiles.get(i), files.get(layerFiles.get(i)));
            if (i >= baseLayers) {
                LAYERS.put(comments.get(i), ImageTar.layer(files.get(layerFiles.get(i))));
            }
        }
    }

    @Test
    void theImageRunsTheExtractedJarWithItsArchiveAsANonRootUser() {
        JsonNode c = config.get("config");
        assertThat(c.get("User").asText()).isEqualTo("10001:10001");
        assertThat(c.get("WorkingDir").asText()).isEqualTo("/opt/gateway");
        // relative paths, as the archive was trained: its class path must read the same at run time
        assertThat(strings(c.get("Entrypoint"))).containsExactly("/opt/gateway/jre/bin/java",
                "-XX:SharedArchiveFile=app/app.jsa", "-XX:MaxRAMPercentage=75", "-jar", "app/gateway-app.jar");
        assertThat(c.get("ExposedPorts").has("8080/tcp")).isTrue();
        assertThat(strings(c.get("Env"))).contains("SPRING_PROFILES_ACTIVE=prod");
        assertThat(config.get("os").asText()).isEqualTo("linux");
        JsonNode labels = c.get("Labels");
        for (String label : List.of("title", "version", "source", "licenses", "description")) {
            assertThat(labels.path("org.opencontainers.image." + label).asText()).as(label).isNotBlank();
        }
        assertThat(labels.get("org.opencontainers.image.title").asText()).isEqualTo("legacy-gateway");
        assertThat(labels.get("org.opencontainers.image.version").asText())
                .isEqualTo(System.getProperty("project.version"));
    }

    @Test
    void eachPartIsALayerOfItsOwnTheMostStableFirst() {
        assertThat(baseLayers).as("the base image's layers").isPositive();
        assertThat(LAYERS.keySet()).containsExactlyElementsOf(OUR_LAYERS);

        assertThat(files("java runtime")).allMatch(p -> p.startsWith("opt/gateway/jre/"))
                .contains("opt/gateway/jre/bin/java", "opt/gateway/jre/lib/modules",
                        "opt/gateway/jre/lib/server/libjvm.so",
                        // the runtime's base archive, which app.jsa builds on
                        "opt/gateway/jre/lib/server/classes.jsa");
        assertThat(files("libraries")).allMatch(p -> p.matches("opt/gateway/app/lib/[^/]+\\.jar"))
                .anyMatch(p -> p.contains("/spring-boot-3")).anyMatch(p -> p.contains("/camel-core-engine-"))
                .anyMatch(p -> p.contains("/legacy-adapters-"));
        assertThat(files("gateway jar")).containsExactly("opt/gateway/app/gateway-app.jar");
        assertThat(files("class data sharing archive")).containsExactly("opt/gateway/app/app.jsa");
        // Jib's own class path layers are dropped: nothing but directories besides the four
        assertThat(files("extra files")).isEmpty();
        assertThat(directories("extra files")).contains("opt/gateway/config", "opt/gateway/routes");
    }

    @Test
    void theGatewaysFilesBelongToRootAndItsUserCannotChangeThem() {
        LAYERS.values().stream().flatMap(List::stream).forEach(e -> {
            assertThat(e.uid()).as(e.path()).isZero();
            assertThat(e.gid()).as(e.path()).isZero();
            assertThat(e.mode() & 0022).as(e.path() + " writable by group or others").isZero();
        });
        assertThat(LAYERS.get("java runtime")).filteredOn(e -> e.path().equals("opt/gateway/jre/bin/java"))
                .singleElement().satisfies(java -> assertThat(java.mode() & 0111).isEqualTo(0111));
        // the JVM accepts app.jsa only with the jars' size and mtime at its dump
        assertThat(LAYERS.get("libraries")).filteredOn(ImageTar.Entry::isFile)
                .allSatisfy(jar -> assertThat(jar.mtime()).as(jar.path()).isEqualTo(JIB_MTIME));
        assertThat(LAYERS.get("gateway jar")).filteredOn(ImageTar.Entry::isFile)
                .allSatisfy(jar -> assertThat(jar.mtime()).as(jar.path()).isEqualTo(JIB_MTIME));
    }

    @Test
    void unpackedTheImageStartsAsItsUserWithTheArchiveUntilReadyAndLive() throws Exception {
        assumeTrue(System.getProperty("os.name").equals("Linux") && "root".equals(System.getProperty("user.name")),
                "unpacking with owners and chroot need root on Linux");
        Path rootfs = Path.of("target", "image-rootfs").toAbsolutePath();
        unmountProc(rootfs);
        run(List.of("rm", "-rf", "--one-file-system", rootfs.toString()));
        Files.createDirectories(rootfs);
        Path blobs = Files.createDirectories(Path.of("target", "image-layers").toAbsolutePath());
        for (String layer : layerFiles) { // in order, as a container runtime stacks them
            Path blob = blobs.resolve(layer);
            Files.write(blob, BLOBS.get(layer));
            run(List.of("tar", "--numeric-owner", "--same-permissions", "-xf", blob.toString(), "-C",
                    rootfs.toString()));
            Files.delete(blob);
        }
        // what compose and Kubernetes mount: the configuration (here the training start's: in-memory H2 and broker)
        // and the routes
        Files.copy(REPO.resolve("gateway-app/src/cds-training/application.yml"),
                rootfs.resolve("opt/gateway/config/application-prod.yml"));
        Files.createDirectories(rootfs.resolve("opt/gateway/routes/outbox"));
        Files.copy(REPO.resolve("docker/routes/outbox/sales-outbox.yaml"),
                rootfs.resolve("opt/gateway/routes/outbox/sales-outbox.yaml"));
        Files.createDirectories(rootfs.resolve("proc"));
        run(List.of("mount", "-t", "proc", "proc", rootfs.resolve("proc").toString()));
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        JsonNode c = config.get("config");
        List<String> command = new ArrayList<>(List.of("chroot", "--userspec=" + c.get("User").asText(),
                rootfs.toString(), "/usr/bin/env", "-C", c.get("WorkingDir").asText()));
        strings(c.get("Env")).forEach(command::add);
        List<String> entrypoint = strings(c.get("Entrypoint"));
        command.add(entrypoint.get(0));
        command.add("-Xshare:on");
        command.addAll(entrypoint.subList(1, entrypoint.size()));
        command.add("--server.port=" + port);
        Path log = Path.of("target", "image-rootfs.log").toAbsolutePath();
        Process gateway = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                    .failFast("the gateway exited", () -> !gateway.isAlive())
                    .until(() -> status(http, port, "readiness").equals("UP"));
            assertThat(status(http, port, "liveness")).isEqualTo("UP");
            // compose's health check, run in the image as compose runs it (its bash, its port 8080 made ours)
            List<String> check = new ArrayList<>(List.of("chroot", "--userspec=" + c.get("User").asText(),
                    rootfs.toString()));
            composeHealthCheck().forEach(arg -> check.add(arg.replace("/dev/tcp/127.0.0.1/8080 ",
                    "/dev/tcp/127.0.0.1/" + port + " ")));
            run(check);
            assertThat(Files.readString(log)).doesNotContain("shared archive");
        } finally {
            gateway.destroy();
            if (!gateway.waitFor(1, TimeUnit.MINUTES)) {
                gateway.destroyForcibly().waitFor();
            }
            unmountProc(rootfs);
        }
        assertThat(gateway.exitValue()).as(Files.readString(log)).isIn(0, 143);
    }

    /** gateway-1's health check in docker/compose.yaml, without its leading CMD. */
    private static List<String> composeHealthCheck() throws IOException {
        try (var in = Files.newInputStream(REPO.resolve("docker/compose.yaml"))) {
            Map<String, Object> compose = new Yaml().load(in);
            @SuppressWarnings("unchecked")
            Map<String, Object> gateway = (Map<String, Object>) ((Map<String, Object>) compose.get("services"))
                    .get("gateway-1");
            @SuppressWarnings("unchecked")
            List<String> test = (List<String>) ((Map<String, Object>) gateway.get("healthcheck")).get("test");
            assertThat(test.get(0)).isEqualTo("CMD");
            return test.subList(1, test.size());
        }
    }

    private static String status(HttpClient http, int port, String group) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/actuator/health/" + group))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return new ObjectMapper().readTree(response.body()).path("status").asText();
        } catch (IOException e) {
            return "no answer: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static void unmountProc(Path rootfs) throws IOException, InterruptedException {
        Path proc = rootfs.resolve("proc");
        if (Files.readString(Path.of("/proc/self/mounts")).contains(" " + proc + " ")) {
            run(List.of("umount", proc.toString()));
        }
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(command + ": " + output).isZero();
    }

    private static List<String> files(String layer) {
        return LAYERS.get(layer).stream().filter(ImageTar.Entry::isFile).map(ImageTar.Entry::path).toList();
    }

    private static List<String> directories(String layer) {
        return LAYERS.get(layer).stream().filter(e -> e.type() == '5').map(ImageTar.Entry::path).toList();
    }

    private static List<String> strings(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }
}
