package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.OutboxRows;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

@OnPostgres
class PostgresXaCrashWindowTest extends XaCrashWindowContractTest {

    @Override
    protected int preparedBranches(OutboxRows rows, String nodeId) {
        return ours(rows, nodeId).size();
    }

    @Override
    protected void rollBackPrepared(OutboxRows rows, String nodeId) {
        ours(rows, nodeId).forEach(gid -> rows.jdbc().execute("ROLLBACK PREPARED '" + gid + "'"));
    }

    /** pgjdbc's transaction ids: format id, then the global id and the branch qualifier in Base64. */
    private static List<String> ours(OutboxRows rows, String nodeId) {
        return rows.jdbc().queryForList("SELECT gid FROM pg_prepared_xacts WHERE database = current_database()",
                String.class).stream().filter(gid -> gid.split("_").length == 3 && new String(Base64.getDecoder()
                        .decode(gid.split("_")[1]), StandardCharsets.ISO_8859_1).contains(nodeId)).toList();
    }
}
