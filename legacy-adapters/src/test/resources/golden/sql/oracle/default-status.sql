-- oracle, markMode STATUS, default mapping (rendered by GoldenSqlTest)

-- claim
SELECT "seq", "id", "aggregate_type", "aggregate_id", "event_type", "event_version", "payload", "occurred_at", "created_at", "correlation_id", "causation_id", "trace_id", "retry_count", CAST("outbox"."seq" AS VARCHAR2(255)) AS gw_key_text FROM "outbox" WHERE "seq" IN (SELECT "seq" FROM (SELECT "seq" FROM "outbox" WHERE (((((("outbox"."status" = 'PENDING') AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))))) AND (("outbox"."next_retry_at" IS NULL OR "outbox"."next_retry_at" <= ?)))) AND (NOT (EXISTS (SELECT 1 FROM "outbox" gw_b WHERE gw_b."aggregate_id" = "outbox"."aggregate_id" AND gw_b."seq" < "outbox"."seq" AND (((((gw_b."status" = 'PENDING') AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b."seq" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))))) AND (gw_b."next_retry_at" > ?))))))) ORDER BY "seq") WHERE ROWNUM <= ?) ORDER BY "seq" FOR UPDATE SKIP LOCKED
--   1: source of the log's entries = 'legacy/outbox'
--   2: the cycle's time as next_retry_at takes it [now]
--   3: source of the log's entries = 'legacy/outbox'
--   4: the cycle's time as next_retry_at takes it [now]
--   5: the most rows to return [limit]

-- claimPastHeldBack
SELECT "seq", "id", "aggregate_type", "aggregate_id", "event_type", "event_version", "payload", "occurred_at", "created_at", "correlation_id", "causation_id", "trace_id", "retry_count", CAST("outbox"."seq" AS VARCHAR2(255)) AS gw_key_text FROM "outbox" WHERE "seq" IN (SELECT "seq" FROM (SELECT "seq" FROM "outbox" WHERE (((((((("outbox"."status" = 'PENDING') AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))))) AND (("outbox"."next_retry_at" IS NULL OR "outbox"."next_retry_at" <= ?)))) AND (NOT (EXISTS (SELECT 1 FROM "outbox" gw_b WHERE gw_b."aggregate_id" = "outbox"."aggregate_id" AND gw_b."seq" < "outbox"."seq" AND (((((gw_b."status" = 'PENDING') AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b."seq" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))))) AND (gw_b."next_retry_at" > ?)))))))) AND ("outbox"."seq" > ? AND ("outbox"."aggregate_id" IS NULL OR "outbox"."aggregate_id" NOT IN (?...)))) ORDER BY "seq") WHERE ROWNUM <= ?) ORDER BY "seq" FOR UPDATE SKIP LOCKED
--   1: source of the log's entries = 'legacy/outbox'
--   2: the cycle's time as next_retry_at takes it [now]
--   3: source of the log's entries = 'legacy/outbox'
--   4: the cycle's time as next_retry_at takes it [now]
--   5: the order of the last claimed row [last_order]
--   6: the aggregates whose claimed rows wait behind another relay's (one ? each) [held_back]
--   7: the most rows to return [limit]

-- waitingCountUpTo
SELECT COUNT(*) FROM (SELECT 1 AS gw_one FROM "outbox" WHERE (("outbox"."status" = 'PENDING') AND ("outbox"."seq" <= ?)) ORDER BY "seq" FETCH FIRST ? ROWS ONLY) gw_c
--   1: the order of the last claimed row [last_order]
--   2: the most rows to return [limit]

-- waitingUpTo
SELECT "outbox"."aggregate_id", "outbox"."seq", CAST("outbox"."seq" AS VARCHAR2(255)) AS gw_key_text FROM "outbox" WHERE (((("outbox"."status" = 'PENDING') AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))))) AND ("outbox"."seq" <= ?)) ORDER BY "seq" FETCH FIRST ? ROWS ONLY
--   1: source of the log's entries = 'legacy/outbox'
--   2: the order of the last claimed row [last_order]
--   3: the most rows to return [limit]

-- firstWaitingNotHeld
SELECT "aggregate_id", MIN("seq") FROM "outbox" WHERE (("outbox"."status" = 'PENDING') AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR2(255)) AND gw_r.state = 'FAILED')))) AND "aggregate_id" IN (?...) AND "seq" < ? AND "seq" NOT IN (?...) GROUP BY "aggregate_id"
--   1: source of the log's entries = 'legacy/outbox'
--   2: the claimed aggregates (one ? each) [aggregates]
--   3: the order of the last claimed row [last_order]
--   4: the keys this claim holds (one ? each) [claimed]

-- markPublished
UPDATE "outbox" SET "status" = ?, "published_at" = ?, "locked_by" = ? WHERE "seq" IN (?...)
--   1: published status = 'PUBLISHED'
--   2: the time of the write as published_at takes it [at]
--   3: the relay instance [publisher]
--   4: the rows' keys (one ? each) [keys]

-- recordFailure.retry
UPDATE "outbox" SET "last_error" = ?, "retry_count" = ?, "next_retry_at" = ? WHERE "seq" = ?
--   1: the failure's reason [reason]
--   2: the attempts counted [attempts]
--   3: the time of the next retry as next_retry_at takes it [next_retry_at]
--   4: the row's key [key]

-- recordFailure.parked
UPDATE "outbox" SET "status" = ?, "last_error" = ?, "retry_count" = ?, "next_retry_at" = NULL WHERE "seq" = ?
--   1: failed status = 'FAILED'
--   2: the failure's reason [reason]
--   3: the attempts counted [attempts]
--   4: the row's key [key]

-- failed.first
SELECT "seq", "id", "aggregate_type", "aggregate_id", "event_type", "event_version", "payload", "occurred_at", "created_at", "correlation_id", "causation_id", "trace_id", "retry_count", CAST("outbox"."seq" AS VARCHAR2(255)) AS gw_key_text, "last_error" FROM "outbox" WHERE (("outbox"."status" = 'FAILED') OR ((("outbox"."status" = 'PENDING') AND (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))))) ORDER BY "seq" FETCH FIRST ? ROWS ONLY
--   1: source of the log's entries = 'legacy/outbox'
--   2: the most rows to return [limit]

-- failed.byKeys
SELECT "seq", "id", "aggregate_type", "aggregate_id", "event_type", "event_version", "payload", "occurred_at", "created_at", "correlation_id", "causation_id", "trace_id", "retry_count", CAST("outbox"."seq" AS VARCHAR2(255)) AS gw_key_text, "last_error" FROM "outbox" WHERE (("outbox"."status" = 'FAILED') OR ((("outbox"."status" = 'PENDING') AND (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))))) AND CAST("outbox"."seq" AS VARCHAR2(255)) IN (?...)
--   1: source of the log's entries = 'legacy/outbox'
--   2: the rows' keys as text (one ? each) [key_texts]

-- waiting
SELECT "seq", "id", "aggregate_type", "aggregate_id", "event_type", "event_version", "payload", "occurred_at", "created_at", "correlation_id", "causation_id", "trace_id", "retry_count", CAST("outbox"."seq" AS VARCHAR2(255)) AS gw_key_text FROM "outbox" WHERE (("outbox"."status" = 'PENDING') AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR2(255)) AND gw_r.state = 'FAILED')))) ORDER BY "seq" FETCH FIRST ? ROWS ONLY
--   1: source of the log's entries = 'legacy/outbox'
--   2: the most rows to return [limit]

-- backlog.pending
SELECT COUNT(*) FROM "outbox" WHERE (("outbox"."status" = 'PENDING') AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR2(255)) AND gw_r.state = 'FAILED'))))
--   1: source of the log's entries = 'legacy/outbox'

-- backlog.oldest
SELECT "created_at" FROM "outbox" WHERE (("outbox"."status" = 'PENDING') AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR2(255)) AND gw_r.state = 'FAILED')))) ORDER BY "seq" FETCH FIRST ? ROWS ONLY
--   1: source of the log's entries = 'legacy/outbox'
--   2: one row = 1

-- backlog.failed
SELECT COUNT(*) FROM "outbox" WHERE (("outbox"."status" = 'FAILED') OR ((("outbox"."status" = 'PENDING') AND (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR2(255)) AND gw_r.state = 'FAILED')))))
--   1: source of the log's entries = 'legacy/outbox'

-- retry
UPDATE "outbox" SET "status" = ?, "retry_count" = ?, "next_retry_at" = NULL WHERE "seq" = ? AND (("outbox"."status" = 'FAILED') OR ((("outbox"."status" = 'PENDING') AND (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR2(255)) AND gw_r.state = 'FAILED')))))
--   1: pending status = 'PENDING'
--   2: no attempts = 0
--   3: the row's key [key]
--   4: source of the log's entries = 'legacy/outbox'

-- retention.select
SELECT "seq" FROM "outbox" WHERE (("outbox"."published_at" < ?) AND ("outbox"."status" = ?)) ORDER BY "seq" FETCH FIRST ? ROWS ONLY
--   1: the retention cutoff as published_at takes it [cutoff]
--   2: published status = 'PUBLISHED'
--   3: the most rows to return [limit]

-- retention.delete
DELETE FROM "outbox" WHERE "seq" IN (?...) AND (("outbox"."published_at" < ?) AND ("outbox"."status" = ?))
--   1: the rows' keys (one ? each) [keys]
--   2: the retention cutoff as published_at takes it [cutoff]
--   3: published status = 'PUBLISHED'

-- log.entries
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM "gateway_outbox_rejection" WHERE source_table = ? AND row_key IN (?...)
--   1: source of the log's entries = 'legacy/outbox'
--   2: the rows' keys as text (one ? each) [key_texts]

-- log.record
MERGE INTO "gateway_outbox_rejection" r USING (SELECT ? AS source_table, ? AS row_key, ? AS relay, ? AS event_id, ? AS reason, ? AS attempts, ? AS state, ? AS next_retry_at, ? AS rejected_at FROM dual) n ON (r.source_table = n.source_table AND r.row_key = n.row_key) WHEN MATCHED THEN UPDATE SET r.relay = n.relay, r.event_id = n.event_id, r.reason = n.reason, r.attempts = n.attempts, r.state = n.state, r.next_retry_at = n.next_retry_at, r.rejected_at = n.rejected_at WHEN NOT MATCHED THEN INSERT (source_table, row_key, relay, event_id, reason, attempts, state, next_retry_at, rejected_at) VALUES (n.source_table, n.row_key, n.relay, n.event_id, n.reason, n.attempts, n.state, n.next_retry_at, n.rejected_at)
--   1: source of the log's entries = 'legacy/outbox'
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
--   1: source of the log's entries = 'legacy/outbox'
--   2: the rows' keys as text (one ? each) [key_texts]

-- log.due
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM "gateway_outbox_rejection" WHERE source_table = ? AND state = 'RETRY' AND (next_retry_at IS NULL OR next_retry_at <= ?) ORDER BY rejected_at, row_key FETCH FIRST ? ROWS ONLY
--   1: source of the log's entries = 'legacy/outbox'
--   2: the cycle's time as the log takes it [now]
--   3: the most rows to return [limit]

-- log.failed
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM "gateway_outbox_rejection" WHERE source_table = ? AND state = 'FAILED' ORDER BY rejected_at, row_key FETCH FIRST ? ROWS ONLY
--   1: source of the log's entries = 'legacy/outbox'
--   2: the most rows to return [limit]

-- log.reset
UPDATE "gateway_outbox_rejection" SET state = 'RETRY', attempts = 0, next_retry_at = NULL WHERE source_table = ? AND state = 'FAILED' AND row_key IN (?...)
--   1: source of the log's entries = 'legacy/outbox'
--   2: the rows' keys as text (one ? each) [key_texts]

-- log.countFailed
SELECT COUNT(*) FROM "gateway_outbox_rejection" WHERE source_table = ? AND state = 'FAILED'
--   1: source of the log's entries = 'legacy/outbox'

