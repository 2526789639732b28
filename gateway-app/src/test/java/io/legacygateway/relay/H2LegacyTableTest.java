package io.legacygateway.relay;

import io.legacygateway.testsupport.OnH2;

@OnH2
class H2LegacyTableTest extends LegacyTableContractTest {

    @Override
    protected String createTable() {
        return "CREATE TABLE " + TABLE + " (evt_no BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                + " evt_uuid UUID DEFAULT RANDOM_UUID() NOT NULL, ref CHAR(12) NOT NULL, kind VARCHAR(64) NOT NULL,"
                + " body BLOB NOT NULL, doc JSON, occurred TIMESTAMP, created TIMESTAMP DEFAULT LOCALTIMESTAMP NOT NULL,"
                + " done_at TIMESTAMP, err CLOB, flag BOOLEAN)";
    }

    @Override
    protected String jsonLiteral(String json) {
        return "JSON '" + json + "'";
    }

    @Override
    protected boolean zeroWriteSupported() {
        return false;
    }

    @Override
    protected String storedTableName() {
        return "EVT_QUEUE";
    }
}
