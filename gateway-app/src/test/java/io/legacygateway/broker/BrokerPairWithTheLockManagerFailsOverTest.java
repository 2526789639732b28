package io.legacygateway.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneArtemisPair;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.util.FileSystemUtils;

/**
 * The split-brain option of the broker pair: the {@code <ha-policy>} that the comments of {@code artemis-config/ha/}
 * document (ZooKeeper lock manager, {@code CuratorDistributedLockManager}), taken from those comments as they are,
 * runs: the primary becomes active holding the lock, the backup replicates, and after a kill -9 of the primary the
 * backup takes the lock and becomes active with every message and the duplicate-id cache (a resend is dropped).
 *
 * <p>Needs a ZooKeeper server: Debian's {@code zookeeperd} ({@code /usr/share/java/zookeeper.jar}), started by the
 * test on a free port; skipped where it is not installed.
 */
class BrokerPairWithTheLockManagerFailsOverTest {

    static final Path ZOOKEEPER_JAR = Path.of("/usr/share/java/zookeeper.jar");
    static final Pattern COMMENTED_POLICY = Pattern.compile(
            "(?s)<!-- Split brain:.*?(<ha-policy>\\s*<replication>.*?</ha-policy>)");
    static final Pattern POLICY = Pattern.compile("(?s)\\n {6}<ha-policy>.*?</ha-policy>");
    static final String QUEUE = "it.lock-manager";
    static final int MESSAGES = 100;

    @Test
    void theBackupTakesTheLockAndOverWithEveryMessageAfterAKillOfThePrimary() throws Exception {
        assumeTrue(Files.isReadable(ZOOKEEPER_JAR), "no ZooKeeper server here (apt-get install zookeeperd)");
        Path data = Files.createTempDirectory("gw-zookeeper-");
        int zkPort;
        try (ServerSocket s = new ServerSocket(0)) {
            zkPort = s.getLocalPort();
        }
        Process zookeeper = new ProcessBuilder("java", "-Xmx128m", "-cp", ZOOKEEPER_JAR.toString(),
                "org.apache.zookeeper.server.ZooKeeperServerMain", String.valueOf(zkPort), data.toString())
                .redirectErrorStream(true).redirectOutput(data.resolve("zookeeper.log").toFile()).start();
        try (StandaloneArtemisPair pair = StandaloneArtemisPair.create(
                BrokerPairWithTheLockManagerFailsOverTest::lockManagerPolicy,
                "-Dartemis.zookeeper=127.0.0.1:" + zkPort)) {
            int port = zkPort;
            Awaitility.await("ZooKeeper on port " + zkPort).atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100)).until(() -> accepts(port));
            pair.start();
            assertThat(Files.readString(pair.primary().instance().resolve("etc/broker.xml")))
                    .contains("CuratorDistributedLockManager").doesNotContain("check-for-active-server>true");

            assertThat(send(pair.primary().adminConnectionFactory())).isZero();
            long killedAt = System.nanoTime();
            pair.killActive();
            pair.awaitBackupActive(Duration.ofSeconds(90));
            System.out.printf("lock manager: backup active %d ms after the kill -9 of the primary%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt));
            assertThat(Files.readString(pair.backup().console())).as("the backup went by the lock, not a vote")
                    .doesNotContain("AMQ221066");

            assertThat(send(pair.backupAdminConnectionFactory())).as("the same ids again: the backup has the primary's"
                    + " duplicate-id cache").isEqualTo(MESSAGES);
            assertThat(new QueueProbe(pair.backupAdminConnectionFactory()).count(QUEUE))
                    .as("every message the primary confirmed, none twice").isEqualTo(MESSAGES);
        } finally {
            zookeeper.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            FileSystemUtils.deleteRecursively(data.toFile());
        }
    }

    /** The HA file with its {@code <ha-policy>} replaced by the one its comment documents. */
    static String lockManagerPolicy(String brokerXml) {
        Matcher commented = COMMENTED_POLICY.matcher(brokerXml);
        assertThat(commented.find()).as("the lock-manager policy in the HA file's comment").isTrue();
        Matcher policy = POLICY.matcher(brokerXml);
        String active = null;
        while (policy.find()) {
            active = policy.group();
        }
        assertThat(active).as("the HA file's <ha-policy>").isNotNull();
        return brokerXml.replace(active, "\n      " + commented.group(1));
    }

    /** Sends the {@value #MESSAGES} messages, each in a transaction of its own; returns how many were duplicates. */
    private static int send(ActiveMQConnectionFactory cf) throws JMSException {
        int duplicates = 0;
        try (Connection c = cf.createConnection(); Session s = c.createSession(true, Session.SESSION_TRANSACTED)) {
            Queue q = s.createQueue(QUEUE);
            MessageProducer p = s.createProducer(q);
            for (int i = 0; i < MESSAGES; i++) {
                TextMessage m = s.createTextMessage("{\"n\":" + i + "}");
                m.setStringProperty("_AMQ_DUPL_ID", "lock-manager-" + i);
                p.send(m);
                try {
                    s.commit();
                } catch (JMSException e) {
                    if (!String.valueOf(e.getMessage()).contains("Duplicate message detected")) {
                        throw e;
                    }
                    duplicates++;
                }
            }
        }
        return duplicates;
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
