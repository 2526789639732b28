package io.legacygateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.GatewayProcess;
import io.legacygateway.testsupport.TestDatabase;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A relay refused at start (its mapping names a column the gateway cannot convert; its table is one the user may not
 * see) used to end with a last ERROR line that began with Camel's wrappers ({@code FailedToCreateRouteException ...;
 * caused by PropertyBindingException: Error binding property (delay=#relayPollMillis-2) ... on bean: timer://...})
 * and gave the reason only at its end; on MariaDB a table without any grant for the user was "does not exist". The
 * last ERROR line now starts with the reason, naming the relay, the parameter, the table and (MariaDB) the user and
 * the grant.
 */
class RelayRefusedAtStartNamesTheReasonLastTest {

    private static final String DID_NOT_START = "The gateway did not start: ";

    @TempDir
    Path workDir;

    private static String lastError(GatewayProcess.Result run) {
        List<GatewayProcess.Line> errors = run.lines().stream().filter(l -> l.text().contains(" ERROR ")).toList();
        assertThat(errors).as(run.output()).isNotEmpty();
        assertThat(run.exitCode()).as(run.output()).isNotNull().isNotZero();
        String last = errors.get(errors.size() - 1).text();
        assertThat(last).as(run.output()).contains(DID_NOT_START);
        return last.substring(last.indexOf(DID_NOT_START) + DID_NOT_START.length());
    }

    @Test
    void aPayloadColumnOfATypeTheGatewayCannotConvertIsTheLastLinesFirstWords() throws Exception {
        GatewayProcess.Result run = GatewayProcess.run(workDir, Duration.ofSeconds(150),
                "--spring.profiles.active=test",
                "--gateway.datasources.legacy.url=jdbc:h2:mem:refused-at-start;DB_CLOSE_DELAY=-1",
                "--gateway.datasources.legacy.username=sa",
                "--gateway.datasources.legacy.initialize-schema=true",
                "--camel.main.routes-include-pattern=classpath:startup-test/relay-unconvertible-type.yaml");

        assertThat(lastError(run)).as(run.output()).startsWith("outbox-relay 'bad-type' parameter 'payloadColumn':"
                + " column 'RETRY_COUNT' has type INTEGER, which the gateway cannot convert to the event payload");
    }

    @Test
    void aMariaDbTableTheUserHoldsNoGrantOnIsNamedWithTheUserAndTheGrant() throws Exception {
        String database = TestDatabase.uniqueName(getClass());
        String url = TestDatabase.MARIADB.create(database);
        String user = "gw_relay_" + UUID.randomUUID().toString().substring(0, 8);
        JdbcTemplate admin = new JdbcTemplate(new DriverManagerDataSource(url, "root", ""));
        try {
            admin.execute("CREATE TABLE outbox (seq BIGINT PRIMARY KEY, payload TEXT)");
            admin.execute("CREATE TABLE other (id BIGINT PRIMARY KEY)");
            admin.execute("CREATE USER '" + user + "'@'%'");
            // a grant in the database (so that the user may connect to it), none on the relay's table
            admin.execute("GRANT SELECT ON " + database + ".other TO '" + user + "'@'%'");

            GatewayProcess.Result run = GatewayProcess.run(workDir, Duration.ofSeconds(150),
                    "--spring.profiles.active=test",
                    "--gateway.datasources.legacy.url=" + url,
                    "--gateway.datasources.legacy.username=" + user,
                    "--gateway.datasources.legacy.password=",
                    "--camel.main.routes-include-pattern=classpath:startup-test/relay-missing-column.yaml");

            assertThat(lastError(run)).as(run.output()).startsWith("outbox-relay 'bad-mapping' parameter 'table':"
                    + " table 'outbox' does not exist in '" + database + "' or is not visible to user '" + user
                    + "'@'%'").contains("SELECT");
        } finally {
            admin.execute("DROP USER IF EXISTS '" + user + "'@'%'");
            TestDatabase.MARIADB.drop(database);
        }
    }
}
