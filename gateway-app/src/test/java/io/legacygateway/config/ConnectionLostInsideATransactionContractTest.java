package io.legacygateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.legacygateway.testsupport.TestDatabase;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Failure window: the database connection is lost inside a local transaction (a relay cycle, an inbox batch, the attempt
 * log): the work fails on it, and so does the rollback. Spring's own manager throws the rollback's failure instead of
 * the work's and logs the work's at ERROR ("Application exception overridden by rollback exception"), one ERROR per lost
 * connection during an outage. The gateway's {@link LocalTransactionManager} counts that rollback as done (the database
 * discarded the transaction with its connection): the caller gets the work's own failure, nothing is logged at ERROR,
 * nothing of the transaction is committed, and the pool hands out a working connection next.
 *
 * <p>The connection is lost for real: the server ends the session ({@code pg_terminate_backend}, {@code KILL}).
 */
@ExtendWith(OutputCaptureExtension.class)
abstract class ConnectionLostInsideATransactionContractTest {

    private String name;
    private HikariDataSource pool;
    private JdbcTemplate jdbc;

    protected abstract TestDatabase database();

    /** The statement that returns the session's own id on the server. */
    protected abstract String sessionIdQuery();

    /** Ends the session {@code id} on the server, from another session. */
    protected abstract void endSession(JdbcTemplate other, long id);

    @BeforeEach
    void pool() throws SQLException {
        name = TestDatabase.uniqueName(getClass());
        pool = new HikariDataSource();
        pool.setJdbcUrl(database().create(name));
        pool.setUsername(database().username());
        pool.setMaximumPoolSize(2);
        jdbc = new JdbcTemplate(pool);
        jdbc.execute("CREATE TABLE effect (id INT NOT NULL PRIMARY KEY)");
    }

    @AfterEach
    void dropped() throws SQLException {
        pool.close();
        database().drop(name);
    }

    @Test
    void theConnectionLostInsideATransactionThrowsTheWorksOwnFailureLogsNoErrorAndCommitsNothing(CapturedOutput out) {
        TransactionTemplate tx = new TransactionTemplate(new LocalTransactionManager(pool));

        assertThatThrownBy(() -> tx.executeWithoutResult(s -> workLosingItsConnection()))
                .as("the work's own failure").isInstanceOf(DataAccessException.class)
                .isNotInstanceOf(TransactionSystemException.class);

        assertThat(out.getAll()).doesNotContain("overridden by rollback exception");
        Integer effects = tx.execute(s -> jdbc.queryForObject("SELECT COUNT(*) FROM effect", Integer.class));
        assertThat(effects).as("nothing committed; the next transaction gets a working connection").isZero();
    }

    @Test
    void withSpringsOwnManagerTheRollbacksFailureHidesTheWorksAndIsLoggedAtError(CapturedOutput out) {
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(pool));

        assertThatThrownBy(() -> tx.executeWithoutResult(s -> workLosingItsConnection()))
                .as("what the gateway no longer does: the window is real").isInstanceOf(TransactionSystemException.class);
        assertThat(out.getAll()).contains("Application exception overridden by rollback exception");
    }

    @Test
    void aRollbackOnAStandingConnectionRollsBackAsBefore() {
        PlatformTransactionManager manager = new LocalTransactionManager(pool);
        TransactionTemplate tx = new TransactionTemplate(manager);

        assertThatThrownBy(() -> tx.executeWithoutResult(s -> {
            jdbc.update("INSERT INTO effect (id) VALUES (1)");
            throw new IllegalStateException("the effect failed");
        })).isInstanceOf(IllegalStateException.class).hasMessage("the effect failed");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM effect", Integer.class)).isZero();
        tx.executeWithoutResult(s -> jdbc.update("INSERT INTO effect (id) VALUES (2)"));
        assertThat(jdbc.queryForList("SELECT id FROM effect", Integer.class)).containsExactly(2);
    }

    /** One effect written, the session ended by the server, a second effect tried on the dead connection. */
    private void workLosingItsConnection() {
        jdbc.update("INSERT INTO effect (id) VALUES (1)");
        long session = jdbc.queryForObject(sessionIdQuery(), Long.class);
        try (HikariDataSource admin = new HikariDataSource()) {
            admin.setJdbcUrl(pool.getJdbcUrl());
            admin.setUsername(pool.getUsername());
            admin.setMaximumPoolSize(1);
            endSession(new JdbcTemplate(admin), session);
        }
        jdbc.update("INSERT INTO effect (id) VALUES (2)");
    }
}
