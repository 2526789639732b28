package io.legacygateway.demo;

import io.legacygateway.config.GatewayDataSources;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/**
 * The demo's second service: one wallet row per customer in its own H2 database, updated by the inbox consumer
 * {@value #CONSUMER} (routes/demo/inbox-wallet.yaml) from the order events, exactly once per event.
 */
public class DemoWallet implements InitializingBean {

    /** The consumer name of the demo's inbox route. */
    public static final String CONSUMER = "demo-wallet";

    private final DataSource dataSource;

    public DemoWallet(GatewayDataSources dataSources, DemoProperties settings) {
        this.dataSource = dataSources.get(settings.walletDataSource(), "demo.wallet-data-source");
    }

    @Override
    public void afterPropertiesSet() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            ScriptUtils.executeSqlScript(c, new ClassPathResource("demo/h2-wallet.sql"));
        }
    }

    /** A customer's wallet: orders created and paid, with their amounts. */
    public Map<String, Object> wallet(String customer) {
        return new JdbcTemplate(dataSource).queryForMap("SELECT orders_created, amount_ordered, orders_paid, "
                + "amount_paid FROM customer_wallet WHERE customer_id = ?", customer);
    }

    public DataSource dataSource() {
        return dataSource;
    }
}
