package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;
import java.util.Map;

@OnMariaDb
class MariaDbPayloadFromColumnsTest extends PayloadFromColumnsContractTest {

    @Override
    protected String createTable(String name) {
        return "CREATE TABLE " + name + " (payment_id BIGINT PRIMARY KEY, customer_id INT NOT NULL,"
                + " amount DECIMAL(5,2) NOT NULL, payment_date DATETIME(6) NOT NULL, paid_at TIMESTAMP(6) NULL,"
                + " day DATE, note VARCHAR(40), code CHAR(4), receipt VARBINARY(16), refunded BOOLEAN, extra JSON,"
                + " processed_at DATETIME(6) NULL, created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
                + " KEY ix_" + name + "_created (created_at)) ENGINE=InnoDB";
    }

    @Override
    protected String paidAt() {
        return "TIMESTAMP '2007-02-15 21:25:46.5'";
    }

    /** MariaDB's JSON is LONGTEXT to its driver: the document arrives as a string (as documented). */
    @Override
    protected String golden() {
        return "mariadb.json";
    }

    @Override
    protected Map<String, Object> zeroWriteParameters() {
        return Map.of("createdAtColumn", "created_at");
    }
}
