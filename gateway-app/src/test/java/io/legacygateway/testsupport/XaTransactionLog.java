package io.legacygateway.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.stream.Stream;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The settings of {@code gateway.transactions.*} for tests with XA relays: Narayana's configuration is per JVM, so
 * every test context of this JVM shares one object store, a fresh folder under {@code target/} (a failed test's
 * records then never reach the next build), and one node name.
 */
public final class XaTransactionLog {

    /**
     * This JVM's node id: the test JVMs run side by side (gateway.tests.forks), and a Narayana recovering one node id
     * would take the other JVM's prepared branches, which its object store does not know, for orphans to roll back.
     */
    public static final String NODE_ID = "gw-test-" + ProcessHandle.current().pid();
    private static Path dir;

    private XaTransactionLog() {
    }

    /** This JVM's object store folder, created on first use. */
    public static synchronized Path dir() {
        if (dir == null) {
            try {
                dir = Files.createDirectories(Path.of("target", "xa-tx-log", UUID.randomUUID().toString())
                        .toAbsolutePath());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dir;
    }

    /** A fresh object store folder, for a gateway in a process of its own. */
    public static Path fresh() {
        try {
            return Files.createDirectories(Path.of("target", "xa-tx-log", UUID.randomUUID().toString())
                    .toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Narayana's records of transactions between their prepares and their commit in {@code store} (files of its
     * {@code AtomicAction} folder); {@code 0} when there is none.
     */
    public static long transactionRecords(Path store) {
        if (!Files.isDirectory(store)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(store)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> f.getParent().getFileName().toString().equals("AtomicAction")).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether Narayana made its own default store (not the configured one) in {@code workDir}. */
    public static boolean defaultStoreIn(Path workDir) {
        return Files.exists(workDir.resolve("PutObjectStoreDirHere"));
    }

    public static void register(DynamicPropertyRegistry registry) {
        registry.add("gateway.transactions.log-dir", () -> dir().toString());
        registry.add("gateway.transactions.node-id", () -> NODE_ID);
        registry.add("gateway.transactions.recovery-interval", () -> "2s");
    }
}
