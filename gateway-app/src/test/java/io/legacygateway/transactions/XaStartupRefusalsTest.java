package io.legacygateway.transactions;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.testsupport.DatabaseServers;
import io.legacygateway.config.GatewayProperties;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** XA that cannot work fails the start, naming the parameter and what to change. Nothing here starts Narayana. */
class XaStartupRefusalsTest {

    private static final String PARAMETER = "outbox-relay 'orders' parameter 'transactionMode'";
    private static final GatewayProperties.DataSourceSpec SPEC = new GatewayProperties.DataSourceSpec(
            DatabaseServers.postgresTestUrl(), "postgres", "", 10, Duration.ofSeconds(10), false, Map.of());

    @Test
    void withoutTheObjectStoreFolderTheStartFailsNamingTheKey() {
        XaTransactions xa = new XaTransactions(new GatewayProperties.Transactions(null, "gw-1",
                Duration.ofSeconds(30)));
        assertThatThrownBy(() -> xa.start(PARAMETER)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(PARAMETER + " is XA, which needs gateway.transactions.log-dir")
                .hasMessageContaining("must survive restarts (not under /tmp)");
    }

    @Test
    void anXaInboxConsumerWithoutTheObjectStoreFolderFailsNamingItsParameterAndTheKey() {
        String consumer = "inbox-consumer 'wallet' parameter 'transactionMode'";
        XaTransactions xa = new XaTransactions(new GatewayProperties.Transactions(" ", "gw-1",
                Duration.ofSeconds(30)));
        assertThatThrownBy(() -> xa.start(consumer)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(consumer + " is XA, which needs gateway.transactions.log-dir");
    }

    @Test
    void withoutANodeNameTheStartFailsNamingTheKey() {
        XaTransactions xa = new XaTransactions(new GatewayProperties.Transactions("/var/lib/gw/tx", " ",
                Duration.ofSeconds(30)));
        assertThatThrownBy(() -> xa.start(PARAMETER)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(PARAMETER + " is XA, which needs gateway.transactions.node-id");
    }

    @Test
    void h2IsRefusedNamingTheParameter() {
        assertThatThrownBy(() -> XaDataSources.of("legacy", SPEC, Dialect.H2, mock(DataSource.class), PARAMETER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(PARAMETER + ": XA needs a database that can prepare a transaction (PostgreSQL"
                        + " or MariaDB); datasource 'legacy' is h2");
    }

    @Test
    void postgresWithoutPreparedTransactionsIsRefusedNamingTheServerSetting() throws Exception {
        DataSource pool = serverAnswering("SHOW max_prepared_transactions", 0);
        assertThatThrownBy(() -> XaDataSources.of("legacy", SPEC, Dialect.POSTGRESQL, pool, PARAMETER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(PARAMETER + ": XA needs PostgreSQL's max_prepared_transactions above 0, and"
                        + " datasource 'legacy' has 0")
                .hasMessageContaining("ALTER SYSTEM SET max_prepared_transactions = 10, then restart PostgreSQL");
    }

    /** A server whose only answer is {@code value} to {@code sql} (the machine's PostgreSQL has it above 0). */
    private static DataSource serverAnswering(String sql, int value) throws Exception {
        DataSource pool = mock(DataSource.class);
        Connection connection = mock(Connection.class);
        Statement statement = mock(Statement.class);
        ResultSet result = mock(ResultSet.class);
        ResultSetMetaData meta = mock(ResultSetMetaData.class);
        when(pool.getConnection()).thenReturn(connection);
        when(connection.createStatement()).thenReturn(statement);
        when(statement.executeQuery(sql)).thenReturn(result);
        when(result.next()).thenReturn(true, false);
        when(result.getMetaData()).thenReturn(meta);
        when(meta.getColumnCount()).thenReturn(1);
        when(result.getInt(1)).thenReturn(value);
        when(result.getObject(1)).thenReturn(String.valueOf(value));
        return pool;
    }
}
