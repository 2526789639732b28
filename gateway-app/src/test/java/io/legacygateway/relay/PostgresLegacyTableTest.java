package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;

@OnPostgres
class PostgresLegacyTableTest extends LegacyTableContractTest {

    @Override
    protected String createTable() {
        return "CREATE TABLE " + TABLE + " (evt_no BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                + " evt_uuid UUID NOT NULL DEFAULT gen_random_uuid(), ref CHAR(12) NOT NULL, kind VARCHAR(64) NOT NULL,"
                + " body BYTEA NOT NULL, doc JSONB, occurred TIMESTAMP, created TIMESTAMP NOT NULL DEFAULT LOCALTIMESTAMP,"
                + " done_at TIMESTAMP, err TEXT, flag BOOLEAN)";
    }

    @Override
    protected boolean zeroWriteSupported() {
        return true;
    }
}
