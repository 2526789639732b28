-- oracle, markMode DELETE, legacy mapping (rendered by GoldenSqlTest)

-- claim
SELECT "evt_no", "ref_no", "evt_kind", "body", "created", CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AS gw_key_text FROM "evt_queue" WHERE "evt_no" IN (SELECT "evt_no" FROM (SELECT "evt_no" FROM "evt_queue" WHERE ((((NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))) AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'RETRY' AND gw_r.next_retry_at > ?))))) AND (NOT (EXISTS (SELECT 1 FROM "evt_queue" gw_b WHERE gw_b."ref_no" = "evt_queue"."ref_no" AND gw_b."evt_no" < "evt_queue"."evt_no" AND (((NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))) AND (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'RETRY' AND gw_r.next_retry_at > ?)))))))) ORDER BY "evt_no") WHERE ROWNUM <= ?) ORDER BY "evt_no" FOR UPDATE SKIP LOCKED
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: source of the log's entries = 'legacy/evt_queue'
--   3: the cycle's time as the log takes it [now]
--   4: source of the log's entries = 'legacy/evt_queue'
--   5: source of the log's entries = 'legacy/evt_queue'
--   6: the cycle's time as the log takes it [now]
--   7: the most rows to return [limit]

-- claimPastHeldBack
SELECT "evt_no", "ref_no", "evt_kind", "body", "created", CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AS gw_key_text FROM "evt_queue" WHERE "evt_no" IN (SELECT "evt_no" FROM (SELECT "evt_no" FROM "evt_queue" WHERE ((((((NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))) AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'RETRY' AND gw_r.next_retry_at > ?))))) AND (NOT (EXISTS (SELECT 1 FROM "evt_queue" gw_b WHERE gw_b."ref_no" = "evt_queue"."ref_no" AND gw_b."evt_no" < "evt_queue"."evt_no" AND (((NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))) AND (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'RETRY' AND gw_r.next_retry_at > ?))))))))) AND ("evt_queue"."evt_no" > ? AND ("evt_queue"."ref_no" IS NULL OR "evt_queue"."ref_no" NOT IN (?...)))) ORDER BY "evt_no") WHERE ROWNUM <= ?) ORDER BY "evt_no" FOR UPDATE SKIP LOCKED
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: source of the log's entries = 'legacy/evt_queue'
--   3: the cycle's time as the log takes it [now]
--   4: source of the log's entries = 'legacy/evt_queue'
--   5: source of the log's entries = 'legacy/evt_queue'
--   6: the cycle's time as the log takes it [now]
--   7: the order of the last claimed row [last_order]
--   8: the aggregates whose claimed rows wait behind another relay's (one ? each) [held_back]
--   9: the most rows to return [limit]

-- waitingCountUpTo
SELECT COUNT(*) FROM (SELECT 1 AS gw_one FROM "evt_queue" WHERE "evt_queue"."evt_no" <= ? ORDER BY "evt_no" FETCH FIRST ? ROWS ONLY) gw_c
--   1: the order of the last claimed row [last_order]
--   2: the most rows to return [limit]

-- waitingUpTo
SELECT "evt_queue"."ref_no", "evt_queue"."evt_no", CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AS gw_key_text FROM "evt_queue" WHERE ((NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))) AND ("evt_queue"."evt_no" <= ?)) ORDER BY "evt_no" FETCH FIRST ? ROWS ONLY
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the order of the last claimed row [last_order]
--   3: the most rows to return [limit]

-- firstWaitingNotHeld
SELECT "ref_no", MIN("evt_no") FROM "evt_queue" WHERE NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'FAILED')) AND "ref_no" IN (?...) AND "evt_no" < ? AND "evt_no" NOT IN (?...) GROUP BY "ref_no"
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the claimed aggregates (one ? each) [aggregates]
--   3: the order of the last claimed row [last_order]
--   4: the keys this claim holds (one ? each) [claimed]

-- markPublished
DELETE FROM "evt_queue" WHERE "evt_no" IN (?...)
--   1: the rows' keys (one ? each) [keys]

-- failed.first
SELECT "evt_no", "ref_no", "evt_kind", "body", "created", CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AS gw_key_text FROM "evt_queue" WHERE EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'FAILED') ORDER BY "evt_no" FETCH FIRST ? ROWS ONLY
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the most rows to return [limit]

-- failed.byKeys
SELECT "evt_no", "ref_no", "evt_kind", "body", "created", CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AS gw_key_text FROM "evt_queue" WHERE EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'FAILED') AND CAST("evt_queue"."evt_no" AS VARCHAR2(255)) IN (?...)
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the rows' keys as text (one ? each) [key_texts]

-- waiting
SELECT "evt_no", "ref_no", "evt_kind", "body", "created", CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AS gw_key_text FROM "evt_queue" WHERE NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'FAILED')) ORDER BY "evt_no" FETCH FIRST ? ROWS ONLY
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the most rows to return [limit]

-- backlog.pending
SELECT COUNT(*) FROM "evt_queue" WHERE NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))
--   1: source of the log's entries = 'legacy/evt_queue'

-- backlog.oldest
SELECT "created" FROM "evt_queue" WHERE NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("evt_queue"."evt_no" AS VARCHAR2(255)) AND gw_r.state = 'FAILED')) ORDER BY "evt_no" FETCH FIRST ? ROWS ONLY
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: one row = 1

-- log.entries
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM "gateway_outbox_rejection" WHERE source_table = ? AND row_key IN (?...)
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the rows' keys as text (one ? each) [key_texts]

-- log.record
MERGE INTO "gateway_outbox_rejection" r USING (SELECT ? AS source_table, ? AS row_key, ? AS relay, ? AS event_id, ? AS reason, ? AS attempts, ? AS state, ? AS next_retry_at, ? AS rejected_at FROM dual) n ON (r.source_table = n.source_table AND r.row_key = n.row_key) WHEN MATCHED THEN UPDATE SET r.relay = n.relay, r.event_id = n.event_id, r.reason = n.reason, r.attempts = n.attempts, r.state = n.state, r.next_retry_at = n.next_retry_at, r.rejected_at = n.rejected_at WHEN NOT MATCHED THEN INSERT (source_table, row_key, relay, event_id, reason, attempts, state, next_retry_at, rejected_at) VALUES (n.source_table, n.row_key, n.relay, n.event_id, n.reason, n.attempts, n.state, n.next_retry_at, n.rejected_at)
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the row's key as text [key_text]
--   3: relay = 'golden'
--   4: the row's event id [event_id]
--   5: the failure's reason [reason]
--   6: the attempts counted [attempts]
--   7: RETRY or FAILED [state]
--   8: the time of the next retry as the log takes it [next_retry_at]
--   9: the time of the write as the log takes it [at]

-- log.clear
DELETE FROM "gateway_outbox_rejection" WHERE source_table = ? AND row_key IN (?...)
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the rows' keys as text (one ? each) [key_texts]

-- log.due
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM "gateway_outbox_rejection" WHERE source_table = ? AND state = 'RETRY' AND (next_retry_at IS NULL OR next_retry_at <= ?) ORDER BY rejected_at, row_key FETCH FIRST ? ROWS ONLY
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the cycle's time as the log takes it [now]
--   3: the most rows to return [limit]

-- log.failed
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM "gateway_outbox_rejection" WHERE source_table = ? AND state = 'FAILED' ORDER BY rejected_at, row_key FETCH FIRST ? ROWS ONLY
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the most rows to return [limit]

-- log.reset
UPDATE "gateway_outbox_rejection" SET state = 'RETRY', attempts = 0, next_retry_at = NULL WHERE source_table = ? AND state = 'FAILED' AND row_key IN (?...)
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the rows' keys as text (one ? each) [key_texts]

-- log.countFailed
SELECT COUNT(*) FROM "gateway_outbox_rejection" WHERE source_table = ? AND state = 'FAILED'
--   1: source of the log's entries = 'legacy/evt_queue'

