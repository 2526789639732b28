package io.legacygateway.capture;

import io.legacygateway.testsupport.OnPostgres;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

@OnPostgres
class PostgresTriggerInstallWithReadmeGrantsTest extends TriggerInstallWithReadmeGrantsTest {

    @Override
    protected String adminUser() {
        return "postgres";
    }

    @Override
    protected List<String> createAccounts() {
        return List.of("CREATE ROLE " + installer + " LOGIN", "CREATE ROLE " + application + " LOGIN",
                "CREATE ROLE " + definer + " NOLOGIN");
    }

    @Override
    protected List<String> dropAccounts() {
        return List.of("DROP OWNED BY " + installer, "DROP ROLE IF EXISTS " + installer,
                "DROP OWNED BY " + application, "DROP ROLE IF EXISTS " + application,
                "DROP OWNED BY " + definer, "DROP ROLE IF EXISTS " + definer);
    }

    @Override
    protected List<String> applicationGrants() {
        return List.of("GRANT USAGE ON SCHEMA " + schema + " TO " + application,
                "GRANT SELECT, INSERT, UPDATE, DELETE ON " + schema + ".customers TO " + application);
    }

    @Override
    protected List<String> readmeInstallerGrants() {
        return List.of("GRANT USAGE, CREATE ON SCHEMA " + schema + " TO " + installer,
                "GRANT TRIGGER ON " + schema + ".customers TO " + installer,
                "GRANT INSERT ON " + schema + ".outbox TO " + installer);
    }

    @Override
    protected List<String> readmeSnapshotGrants() {
        return List.of("GRANT SELECT ON " + schema + ".customers TO " + installer);
    }

    /** The function writes the outbox as its owner, the installer. */
    @Override
    protected String revokeOneGrant(JdbcTemplate admin) {
        admin.execute("REVOKE INSERT ON " + schema + ".outbox FROM " + installer);
        return "INSERT";
    }

    @Override
    protected int captureObjects(JdbcTemplate admin) {
        return admin.queryForObject("SELECT (SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND NOT t.tgisinternal)"
                + " + (SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
                + " WHERE n.nspname = ?)", Integer.class, schema, schema);
    }

    @Override
    protected void dropCaptureObjects(JdbcTemplate admin) {
        admin.execute("DROP FUNCTION IF EXISTS " + schema + ".gw_capture_customers() CASCADE");
    }

    @Override
    protected String sessionsWaitingForALock() {
        return "SELECT count(*)::int FROM pg_stat_activity WHERE usename = ? AND wait_event_type = 'Lock'";
    }

    @Override
    protected String refusalOfAnUnprivilegedTable() {
        return "lacks TRIGGER on " + schema + ".inventory";
    }

    @Override
    protected List<String> readmeDefinerGrants() {
        return List.of("GRANT USAGE, CREATE ON SCHEMA " + schema + " TO " + definer,
                "GRANT INSERT ON " + schema + ".outbox TO " + definer);
    }

    @Override
    protected String definerOption() {
        return definer;
    }

    @Override
    protected List<String> rightToNameADefiner() {
        return List.of("GRANT " + definer + " TO " + installer);
    }

    @Override
    protected String refusalWithoutTheRightToNameADefiner() {
        return "lacks membership in role " + definer;
    }

    @Override
    protected List<String> installerWithoutOutboxInsert() {
        return List.of("REVOKE INSERT ON " + schema + ".outbox FROM " + installer);
    }

    @Override
    protected String definerOfTheCapture(JdbcTemplate admin) {
        return admin.queryForObject("SELECT pg_get_userbyid(p.proowner) FROM pg_proc p JOIN pg_namespace n"
                + " ON n.oid = p.pronamespace WHERE n.nspname = ? AND p.proname = 'gw_capture_customers'",
                String.class, schema);
    }
}
