package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbLegacyTableTest extends LegacyTableContractTest {

    @Override
    protected String createTable() {
        return "CREATE TABLE " + TABLE + " (evt_no BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
                + " evt_uuid UUID NOT NULL DEFAULT UUID(), ref CHAR(12) NOT NULL, kind VARCHAR(64) NOT NULL,"
                + " body LONGBLOB NOT NULL, doc JSON NULL, occurred DATETIME(6) NULL,"
                + " created DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), done_at DATETIME(6) NULL,"
                + " err VARCHAR(2000) NULL, flag BOOLEAN NULL, KEY ix_evt_queue_created (created)) ENGINE=InnoDB";
    }

    @Override
    protected void age(long key) {
        legacy.update("UPDATE " + TABLE + " SET created = created - INTERVAL 1 HOUR WHERE evt_no = ?", key);
    }

    @Override
    protected boolean zeroWriteSupported() {
        return true;
    }
}
