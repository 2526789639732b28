package io.legacygateway.inbox;

import io.legacygateway.testsupport.OnPostgres;

@OnPostgres(dataSource = "target")
class PostgresHugeJsonNumberIsDeadLetteredAsMalformedTest extends HugeJsonNumberIsDeadLetteredAsMalformedTest {
}
