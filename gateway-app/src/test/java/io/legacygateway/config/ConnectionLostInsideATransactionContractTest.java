package io.legacygateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.legacygateway.testsupport.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Failure window: the database connection is lost inside a local transaction (a relay cycle, an inbox batch, the attempt
 * log): the work fails on it, and so does the rollback. Spring's own manager throws the rollback's failure instead of
 * the work's and logs the work's at ERROR ("Application exception overridden by rollback exception"), one ERROR per lost
 * connection during an outage. The gateway's {@link LocalTransactionManager} counts that rollback as done (the database
 * discarded the transaction with its connection): the caller gets the work's own failure, nothing is logged at ERROR,
 * nothing of the transaction is committed, and the pool hands out a working connection next. A rollback that fails
 * while its connection stands is still thrown.
 *
 * <p>The connection is lost for real: the server ends the session ({@code pg_terminate_backend}, {@code KILL}).
 */
@ExtendWith(OutputCaptureExtension.class)
abstract class ConnectionLostInsideATransactionContractTest {

    private String name;
    private HikariDataSource pool;
    private JdbcTemplate jdbc;

    /** The database this class runs against: its {@code @OnPostgres}, {@code @OnMariaDb} or {@code @OnH2}. */
    protected TestDatabase database() {
        return TestDatabase.of(getClass());
    }

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
    void aRollbackThatFailsOnAStandingConnectionIsStillThrown() {
        // the real connection, whose rollback refuses once while the connection stays open
        DataSource refusingRollback = new DelegatingDataSource(pool) {
            @Override
            public Connection getConnection() throws SQLException {
                Connection real = pool.getConnection();
                return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                            if (method.getName().equals("rollback") && args == null) {
                                real.rollback();
                                throw new SQLException("rollback refused", "XX000");
                            }
                            try {
                                return method.invoke(real, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
            }
        };
        TransactionTemplate tx = new TransactionTemplate(new LocalTransactionManager(refusingRollback));

        assertThatThrownBy(() -> tx.executeWithoutResult(s -> {
            new JdbcTemplate(refusingRollback).update("INSERT INTO effect (id) VALUES (1)");
            throw new IllegalStateException("the effect failed");
        })).as("the rollback's failure, with the work's kept aside").isInstanceOf(TransactionSystemException.class)
                .satisfies(e -> assertThat(((TransactionSystemException) e).getApplicationException())
                        .hasMessage("the effect failed"));
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM effect", Integer.class)).isZero();
    }

    /** One effect written, the session ended by the server, a second effect tried on the dead connection. */
    private void workLosingItsConnection() {
        jdbc.update("INSERT INTO effect (id) VALUES (1)");
        long session = jdbc.queryForObject(database().sessionIdQuery(), Long.class);
        JdbcTemplate other = new JdbcTemplate(new DriverManagerDataSource(pool.getJdbcUrl(), pool.getUsername(), ""));
        database().endSession(other, session);
        jdbc.update("INSERT INTO effect (id) VALUES (2)");
    }
}
