package io.legacygateway.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.awaitility.Awaitility;

/**
 * The Apache Artemis distribution (unpacked by the build into {@code target/artemis}, see {@code artemis.home}) run as
 * a real broker process, configured with the repository's {@code artemis-config/}. For tests where broker behaviour is
 * the subject: restarts, kills, dead letters, redelivery, the CLI.
 *
 * <p>One broker per JVM ({@link #shared()}), created on first use and killed when the JVM exits. Tests that stop it
 * must start it again.
 */
public final class StandaloneArtemis {

    public static final String ADMIN = "admin";
    public static final String GATEWAY_USER = "gateway";

    private static StandaloneArtemis shared;

    private final Path home;
    private final Path instance;
    private final int port;
    private Process process;

    private StandaloneArtemis(Path home, Path instance, int port) {
        this.home = home;
        this.instance = instance;
        this.port = port;
    }

    /** The JVM's broker, created and started on first use. */
    public static synchronized StandaloneArtemis shared() {
        if (shared == null) {
            try {
                Path dir = Files.createTempDirectory("gw-artemis-");
                shared = create(dir.resolve("broker"));
                StandaloneArtemis broker = shared;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    broker.kill();
                    org.springframework.util.FileSystemUtils.deleteRecursively(dir.toFile());
                }));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (!shared.running()) {
            shared.start();
        }
        return shared;
    }

    /** Creates a broker instance in {@code instance} with the repository's configuration, not yet started. */
    public static StandaloneArtemis create(Path instance) throws IOException {
        return create(instance, freePort(), "broker.xml", "");
    }

    /**
     * Creates a broker instance in {@code instance}, not yet started, listening on {@code port}: its
     * {@code etc/broker.xml} is {@code artemis-config/<brokerXml>}, its users and roles the repository's.
     *
     * @param javaOptions further JVM options of the broker (system properties that broker.xml's placeholders read)
     */
    static StandaloneArtemis create(Path instance, int port, String brokerXml, String javaOptions) throws IOException {
        Path home = home();
        run(List.of(home.resolve("bin/artemis").toString(), "create", instance.toString(), "--silent", "--force",
                "--user", ADMIN, "--password", ADMIN, "--require-login", "--no-web", "--no-autotune", "--nio",
                "--host", "127.0.0.1", "--java-memory", "512M",
                ("--java-options=-Dartemis.port=" + port + " " + javaOptions).strip()),
                instance.getParent().resolve(instance.getFileName() + "-create.log"));
        Path config = repositoryRoot().resolve("artemis-config");
        Files.copy(config.resolve(brokerXml), instance.resolve("etc/broker.xml"), StandardCopyOption.REPLACE_EXISTING);
        for (String f : List.of("artemis-users.properties", "artemis-roles.properties")) {
            Files.copy(config.resolve(f), instance.resolve("etc").resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        return new StandaloneArtemis(home, instance, port);
    }

    /**
     * Creates a broker instance as {@code artemis create} makes it for any user, with its own broker.xml, users and
     * roles (user {@value #ADMIN}, role {@code amq}), not yet started. Only the main acceptor, on a free loopback port
     * (the protocol-specific ones are left out so that they take no fixed ports).
     */
    public static StandaloneArtemis createStock(Path instance) throws IOException {
        Path home = home();
        int port = freePort();
        run(List.of(home.resolve("bin/artemis").toString(), "create", instance.toString(), "--silent", "--force",
                "--user", ADMIN, "--password", ADMIN, "--require-login", "--no-web", "--no-autotune", "--nio",
                "--host", "127.0.0.1", "--default-port", String.valueOf(port), "--no-amqp-acceptor",
                "--no-stomp-acceptor", "--no-hornetq-acceptor", "--no-mqtt-acceptor", "--java-memory", "512M"),
                instance.getParent().resolve("create.log"));
        return new StandaloneArtemis(home, instance, port);
    }

    private static Path home() {
        Path home = Path.of(System.getProperty("artemis.home", "target/artemis/apache-artemis-2.40.0"));
        if (!Files.isExecutable(home.resolve("bin/artemis"))) {
            throw new IllegalStateException("No Artemis distribution at " + home.toAbsolutePath()
                    + ": run the tests through Maven (mvn verify), which unpacks it");
        }
        return home;
    }

    public static Path repositoryRoot() {
        Path root = Path.of(System.getProperty("gateway.repo.root", "..")).toAbsolutePath().normalize();
        if (!Files.isDirectory(root.resolve("artemis-config"))) {
            throw new IllegalStateException("cannot find artemis-config/ under " + root);
        }
        return root;
    }

    public synchronized void start() {
        launch();
        awaitAccepting(Duration.ofSeconds(60));
    }

    /** Starts the broker process without waiting for it (a replicating backup opens its acceptor only when active). */
    synchronized void launch() {
        try {
            Files.createDirectories(instance.resolve("log"));
            ProcessBuilder pb = new ProcessBuilder(instance.resolve("bin/artemis").toString(), "run")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(console().toFile()));
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the broker accepts connections on its port; fails at once if its process ended. */
    void awaitAccepting(Duration atMost) {
        Process p;
        synchronized (this) {
            p = process;
        }
        Awaitility.await("broker accepting connections on port " + port).atMost(atMost)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    if (p == null || !p.isAlive()) {
                        throw new IllegalStateException("broker exited, see " + console());
                    }
                    return accepts();
                });
    }

    /** Where the broker process's output goes (its log, as the instance's log4j2 configuration writes to the console). */
    public Path console() {
        return instance.resolve("log/console.log");
    }

    /**
     * The broker's own JVM: the process started, when the instance's {@code bin/artemis} replaced itself with it
     * ({@code exec}, as 2.40's does), else the descendant that runs Artemis's main class. A kill -9 must reach this
     * process, not a launcher script that would leave the broker running.
     */
    public synchronized ProcessHandle brokerJvm() {
        if (process == null) {
            throw new IllegalStateException("broker not started");
        }
        ProcessHandle launched = process.toHandle();
        if (runsArtemis(launched)) {
            return launched;
        }
        return launched.descendants().filter(StandaloneArtemis::runsArtemis).findFirst()
                .orElseThrow(() -> new IllegalStateException("no broker JVM under process " + launched.pid()));
    }

    private static boolean runsArtemis(ProcessHandle p) {
        return p.info().commandLine().map(c -> c.contains("org.apache.activemq.artemis.boot.Artemis")).orElse(false)
                || p.info().arguments().map(a -> List.of(a).contains("org.apache.activemq.artemis.boot.Artemis"))
                        .orElse(false);
    }

    /** Graceful stop (SIGTERM), waiting for the process to end. */
    public synchronized void stop() {
        end(false);
    }

    /** Crash (SIGKILL): no shutdown hook, no journal close. */
    public synchronized void kill() {
        end(true);
    }

    private void end(boolean force) {
        if (process == null) {
            return;
        }
        if (force) {
            // SIGKILL to the broker's JVM itself; the launcher, if it is another process, ends with it
            if (process.isAlive()) {
                try {
                    brokerJvm().destroyForcibly();
                } catch (IllegalStateException notFound) {
                    // no JVM under it (yet): the launcher is all there is
                }
            }
            process.destroyForcibly();
        } else {
            process.destroy();
        }
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    public synchronized boolean running() {
        return process != null && process.isAlive();
    }

    public String url() {
        return "tcp://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** A connection factory for the test's own checks, as the administrator. */
    public ActiveMQConnectionFactory adminConnectionFactory() {
        return new ActiveMQConnectionFactory(url(), ADMIN, ADMIN);
    }

    /** Runs {@code bin/artemis <args>} of the instance (for example {@code queue stat}) and returns its output. */
    public String cli(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(instance.resolve("bin/artemis").toString()));
        command.addAll(List.of(args));
        command.addAll(List.of("--url", url(), "--user", ADMIN, "--password", ADMIN));
        Path out = Files.createTempFile(instance.getParent(), "cli-", ".log");
        run(command, out);
        return Files.readString(out);
    }

    public Path instance() {
        return instance;
    }

    private boolean accepts() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void run(List<String> command, Path log) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("'" + String.join(" ", command) + "' failed; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
