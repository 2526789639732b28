package io.legacygateway.inbox;

import io.legacygateway.testsupport.OnPostgres;
import java.util.List;

@OnPostgres(dataSource = "target")
class PostgresInboxDataErrorIsDeadLetteredAtOnceTest extends InboxDataErrorIsDeadLetteredAtOnceTest {

    /** Too long, and a NUL character, which PostgreSQL text cannot hold. */
    @Override
    protected List<String> refusedCustomers() {
        return List.of("c".repeat(65), "nul\u0000char");
    }
}
