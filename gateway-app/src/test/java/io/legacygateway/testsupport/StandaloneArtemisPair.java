package io.legacygateway.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.awaitility.Awaitility;
import org.springframework.util.FileSystemUtils;

/**
 * The replicated broker pair of {@code artemis-config/ha/} as real processes: two instances created from the Artemis
 * distribution, the primary with {@code broker-primary.xml}, the backup with {@code broker-backup.xml}, each on a free
 * loopback port, with a cluster password of their own. {@link #start()} starts the primary, then the backup, and
 * returns once the backup has logged that it is synchronized with the primary (AMQ221024): from then on every commit
 * the primary confirms is on the backup too. {@link #killActive()} is a kill -9 of the active broker's JVM;
 * {@link #restartKilled} starts it again and waits until the pair is whole (with the repository's files: the primary
 * copies the journal back from the backup and takes over again, the backup starts again as its replica), so that a
 * test can kill the active broker again and again.
 *
 * <p>Not shared: a test class makes its own pair and closes it (both killed, their directories deleted).
 */
public final class StandaloneArtemisPair implements AutoCloseable {

    /**
     * Artemis's log codes that say where a broker of the pair stands: "Server is now active" (the primary at its
     * start, the backup when it takes over, after AMQ221037 "to become 'active'"), "Backup server ... is synchronized
     * with primary server".
     */
    static final String SERVER_ACTIVE = "AMQ221007";
    static final String BACKUP_SYNCHRONIZED = "AMQ221024";

    /** The client options of the pair's URL as {@code docs/deployment.md} "Broker HA" gives them. */
    public static final String CLIENT_OPTIONS = "ha=true&reconnectAttempts=-1&initialConnectAttempts=-1"
            + "&retryInterval=500&retryIntervalMultiplier=1.5&maxRetryInterval=2000";

    private final Path dir;
    private final StandaloneArtemis primary;
    private final StandaloneArtemis backup;
    private boolean primaryActive = true;
    /** Where the backup's output of its current run starts. */
    private long backupStartedAt;
    /** Where the surviving broker's output starts at the last kill. */
    private long survivorLogFrom;
    /** The broker killed last and not started again, {@code null} when both run. */
    private StandaloneArtemis killed;

    private StandaloneArtemisPair(Path dir, StandaloneArtemis primary, StandaloneArtemis backup) {
        this.dir = dir;
        this.primary = primary;
        this.backup = backup;
    }

    /** Creates both instances, not yet started. */
    public static StandaloneArtemisPair create() {
        return create(UnaryOperator.identity(), "");
    }

    /**
     * Creates both instances, not yet started, each with its HA file as {@code edit} changes it (for example another
     * {@code <ha-policy>}), and further JVM options of both brokers.
     */
    public static StandaloneArtemisPair create(UnaryOperator<String> edit, String javaOptions) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("gw-artemis-pair-");
            int primaryPort = StandaloneArtemis.freePort();
            int backupPort = StandaloneArtemis.freePort();
            // what both brokers' placeholders read: where each one is, and the replication channel's password
            String options = "-Dartemis.primary.port=" + primaryPort + " -Dartemis.backup.port=" + backupPort
                    + " -DARTEMIS_CLUSTER_PASSWORD=" + UUID.randomUUID() + " " + javaOptions;
            StandaloneArtemis primary = StandaloneArtemis.create(dir.resolve("primary"), primaryPort,
                    "ha/broker-primary.xml", options);
            StandaloneArtemis backup = StandaloneArtemis.create(dir.resolve("backup"), backupPort,
                    "ha/broker-backup.xml", options);
            for (StandaloneArtemis broker : new StandaloneArtemis[] {primary, backup}) {
                Path xml = broker.instance().resolve("etc/broker.xml");
                Files.writeString(xml, edit.apply(Files.readString(xml)));
            }
            StandaloneArtemisPair pair = new StandaloneArtemisPair(dir, primary, backup);
            Runtime.getRuntime().addShutdownHook(new Thread(pair::close));
            return pair;
        } catch (IOException e) {
            if (dir != null) {
                FileSystemUtils.deleteRecursively(dir.toFile());
            }
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts the primary, waits until it is active, then starts the backup and waits until it has copied the
     * primary's journal and is replicating it.
     */
    public StandaloneArtemisPair start() {
        long primaryLog = logSize(primary);
        primary.start();
        awaitLog(primary, primaryLog, SERVER_ACTIVE, "the primary active", Duration.ofSeconds(60));
        backupStartedAt = logSize(backup);
        backup.launch();
        awaitLog(backup, backupStartedAt, BACKUP_SYNCHRONIZED, "the backup synchronized with the primary",
                Duration.ofSeconds(60));
        return this;
    }

    /** The client URL of the pair, as {@code docs/deployment.md} "Broker HA" gives it. */
    public String haUrl() {
        return "(tcp://127.0.0.1:" + primary.port() + ",tcp://127.0.0.1:" + backup.port() + ")?" + CLIENT_OPTIONS;
    }

    public StandaloneArtemis primary() {
        return primary;
    }

    public StandaloneArtemis backup() {
        return backup;
    }

    /**
     * kill -9 of the active broker's JVM (the primary until a failover): no shutdown, no journal close, no goodbye
     * to its clients or to its backup. Waits until the process is gone.
     */
    public synchronized void killActive() {
        StandaloneArtemis active = primaryActive ? primary : backup;
        survivorLogFrom = logSize(primaryActive ? backup : primary);
        ProcessHandle jvm = active.brokerJvm();
        jvm.destroyForcibly();
        try {
            jvm.onExit().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("broker JVM " + jvm.pid() + " still running after kill -9", e);
        }
        active.kill(); // reaps the launched process
        primaryActive = !primaryActive;
        killed = active;
    }

    /** Whether the primary is the active broker (as far as this pair's kills and restarts tell). */
    public synchronized boolean primaryActive() {
        return primaryActive;
    }

    /** Waits until the broker that took over from the killed one has logged that it is active and accepts clients. */
    public void awaitTakeover(Duration atMost) {
        StandaloneArtemis active;
        long from;
        synchronized (this) {
            active = primaryActive ? primary : backup;
            from = survivorLogFrom;
        }
        awaitLog(active, from, SERVER_ACTIVE, "the surviving broker active", atMost);
        active.awaitAccepting(atMost);
    }

    /**
     * Starts the broker killed last again and returns once the pair is whole: a restarted primary (its
     * {@code check-for-active-server}) first copies the journal from the active backup (AMQ221024), then takes over
     * again (AMQ221007: fail-back, the backup hands over, a planned failover for the clients) and the backup, started
     * again by itself ({@code restart-backup}), is synchronized with it (AMQ221024); a restarted backup is synchronized
     * with the primary. Returns the milliseconds from the start to the pair being whole.
     *
     * @param failback called when the primary has the journal and is about to take over again (the fail-back's
     *                 failover starts), not called when the backup was restarted
     */
    public long restartKilled(Duration atMost, Runnable failback) {
        StandaloneArtemis restarted;
        long began = System.nanoTime();
        synchronized (this) {
            restarted = killed;
            if (restarted == null) {
                throw new IllegalStateException("no broker of the pair was killed");
            }
            killed = null;
        }
        long from = logSize(restarted);
        restarted.launch();
        if (restarted == primary) {
            awaitLog(primary, from, BACKUP_SYNCHRONIZED, "the restarted primary synchronized with the backup", atMost);
            failback.run();
            long backupFrom = logSize(backup);
            awaitLog(primary, from, SERVER_ACTIVE, "the primary active again (fail-back)", atMost);
            primary.awaitAccepting(atMost);
            synchronized (this) {
                primaryActive = true;
            }
            awaitLog(backup, backupFrom, BACKUP_SYNCHRONIZED, "the backup synchronized again after the fail-back",
                    atMost);
            backupStartedAt = backupFrom;
        } else {
            backupStartedAt = from;
            awaitLog(backup, from, BACKUP_SYNCHRONIZED, "the restarted backup synchronized", atMost);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
    }

    /** Waits until the backup has logged that it is active (AMQ221007) and accepts connections. */
    public void awaitBackupActive(Duration atMost) {
        awaitLog(backup, backupStartedAt, SERVER_ACTIVE, "the backup active", atMost);
        backup.awaitAccepting(atMost);
    }

    /** A connection factory straight to the backup (no failover), as the administrator, for the test's own checks. */
    public ActiveMQConnectionFactory backupAdminConnectionFactory() {
        return backup.adminConnectionFactory();
    }

    @Override
    public synchronized void close() {
        backup.kill();
        primary.kill();
        FileSystemUtils.deleteRecursively(dir.toFile());
    }

    private static long logSize(StandaloneArtemis broker) {
        try {
            return Files.exists(broker.console()) ? Files.size(broker.console()) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the broker's output, from byte {@code from} on, has a line with {@code code}. */
    private static void awaitLog(StandaloneArtemis broker, long from, String code, String what, Duration atMost) {
        Awaitility.await(what + " (" + code + " in " + broker.console() + ")").atMost(atMost)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    if (!broker.running()) {
                        throw new IllegalStateException("broker exited before " + what + ", see " + broker.console());
                    }
                    return logSince(broker, from).contains(code);
                });
    }

    private static String logSince(StandaloneArtemis broker, long from) throws IOException {
        if (!Files.exists(broker.console())) {
            return "";
        }
        byte[] all = Files.readAllBytes(broker.console());
        int start = (int) Math.min(from, all.length);
        return new String(all, start, all.length - start, StandardCharsets.UTF_8);
    }
}
