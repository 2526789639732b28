package io.legacygateway.capture;

import io.legacygateway.testsupport.OnMariaDb;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

@OnMariaDb
class MariaDbTriggerInstallWithReadmeGrantsTest extends TriggerInstallWithReadmeGrantsTest {

    @Override
    protected String adminUser() {
        return "root";
    }

    private String account(String user) {
        return "'" + user + "'@'%'";
    }

    @Override
    protected List<String> createAccounts() {
        return List.of("CREATE USER " + account(installer), "CREATE USER " + account(application),
                "CREATE USER " + account(definer));
    }

    @Override
    protected List<String> dropAccounts() {
        return List.of("DROP USER IF EXISTS " + account(installer), "DROP USER IF EXISTS " + account(application),
                "DROP USER IF EXISTS " + account(definer));
    }

    @Override
    protected List<String> applicationGrants() {
        return List.of("GRANT SELECT, INSERT, UPDATE, DELETE ON " + schema + ".customers TO " + account(application));
    }

    @Override
    protected List<String> readmeInstallerGrants() {
        return List.of("GRANT TRIGGER, SELECT ON " + schema + ".customers TO " + account(installer),
                "GRANT INSERT ON " + schema + ".outbox TO " + account(installer));
    }

    @Override
    protected List<String> readmeSnapshotGrants() {
        return List.of("GRANT LOCK TABLES ON " + schema + ".* TO " + account(installer),
                "GRANT SELECT ON " + schema + ".outbox TO " + account(installer));
    }

    /** The grants documented before: TRIGGER on the table and INSERT on the outbox (the ERROR 1143). */
    @Override
    protected String revokeOneGrant(JdbcTemplate admin) {
        admin.execute("REVOKE SELECT ON " + schema + ".customers FROM " + account(installer));
        return "SELECT";
    }

    @Override
    protected int captureObjects(JdbcTemplate admin) {
        return admin.queryForObject("SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?",
                Integer.class, schema);
    }

    @Override
    protected void dropCaptureObjects(JdbcTemplate admin) {
        for (String op : List.of("ins", "upd", "del")) {
            admin.execute("DROP TRIGGER IF EXISTS " + schema + ".gw_capture_customers_" + op);
        }
    }

    @Override
    protected String sessionsWaitingForALock() {
        return "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = ?"
                + " AND STATE = 'Waiting for table metadata lock'";
    }

    @Override
    protected String refusalOfAnUnprivilegedTable() {
        return "does not exist in '" + schema + "' or is not visible to user";
    }

    @Override
    protected List<String> readmeDefinerGrants() {
        return List.of("GRANT TRIGGER, SELECT ON " + schema + ".customers TO " + account(definer),
                "GRANT INSERT ON " + schema + ".outbox TO " + account(definer));
    }

    @Override
    protected String definerOption() {
        return definer + "@%";
    }

    @Override
    protected List<String> rightToNameADefiner() {
        return List.of("GRANT SET USER ON *.* TO " + account(installer),
                "GRANT SELECT ON mysql.* TO " + account(installer));
    }

    @Override
    protected String refusalWithoutTheRightToNameADefiner() {
        return "lacks SET USER";
    }

    @Override
    protected List<String> installerWithoutOutboxInsert() {
        return List.of("GRANT SELECT ON " + schema + ".outbox TO " + account(installer),
                "REVOKE INSERT ON " + schema + ".outbox FROM " + account(installer));
    }

    @Override
    protected String definerOfTheCapture(JdbcTemplate admin) {
        return admin.queryForList("SELECT DISTINCT DEFINER FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?",
                String.class, schema).stream().map(d -> d.substring(0, d.lastIndexOf('@')))
                .reduce((a, b) -> a + "," + b).orElse("none");
    }
}
