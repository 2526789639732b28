-- postgresql, markMode STATUS, block-aggregate mapping (rendered by GoldenSqlTest)

-- only what differs from default-status.sql

-- claim
SELECT "seq", "id", "aggregate_type", "aggregate_id", "event_type", "event_version", "payload", "occurred_at", "created_at", "correlation_id", "causation_id", "trace_id", "retry_count", CAST("outbox"."seq" AS VARCHAR(255)) AS gw_key_text FROM "outbox" WHERE (((((((("outbox"."status" = 'PENDING') AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR(255)) AND gw_r.state = 'FAILED'))))) AND (("outbox"."next_retry_at" IS NULL OR "outbox"."next_retry_at" <= ?)))) AND (NOT (EXISTS (SELECT 1 FROM "outbox" gw_b WHERE gw_b."aggregate_id" = "outbox"."aggregate_id" AND gw_b."seq" < "outbox"."seq" AND (((CASE WHEN ((gw_b."status" = 'PENDING') AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b."seq" AS VARCHAR(255)) AND gw_r.state = 'FAILED')))) THEN TRUE ELSE FALSE END) AND (gw_b."next_retry_at" > ?)))))))) AND (NOT (EXISTS (SELECT 1 FROM "outbox" gw_b WHERE gw_b."aggregate_id" = "outbox"."aggregate_id" AND gw_b."seq" < "outbox"."seq" AND ((gw_b."status" IN ('FAILED', 'PENDING')) AND (CASE WHEN ((gw_b."status" = 'FAILED') OR (((gw_b."status" = 'PENDING') AND (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b."seq" AS VARCHAR(255)) AND gw_r.state = 'FAILED'))))) THEN TRUE ELSE FALSE END)))))) ORDER BY "seq" LIMIT ? FOR UPDATE SKIP LOCKED
--   1: source of the log's entries = 'legacy/outbox'
--   2: the cycle's time as next_retry_at takes it [now]
--   3: source of the log's entries = 'legacy/outbox'
--   4: the cycle's time as next_retry_at takes it [now]
--   5: source of the log's entries = 'legacy/outbox'
--   6: the most rows to return [limit]

-- claimPastHeldBack
SELECT "seq", "id", "aggregate_type", "aggregate_id", "event_type", "event_version", "payload", "occurred_at", "created_at", "correlation_id", "causation_id", "trace_id", "retry_count", CAST("outbox"."seq" AS VARCHAR(255)) AS gw_key_text FROM "outbox" WHERE (((((((((("outbox"."status" = 'PENDING') AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR(255)) AND gw_r.state = 'FAILED'))))) AND (("outbox"."next_retry_at" IS NULL OR "outbox"."next_retry_at" <= ?)))) AND (NOT (EXISTS (SELECT 1 FROM "outbox" gw_b WHERE gw_b."aggregate_id" = "outbox"."aggregate_id" AND gw_b."seq" < "outbox"."seq" AND (((CASE WHEN ((gw_b."status" = 'PENDING') AND (NOT (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b."seq" AS VARCHAR(255)) AND gw_r.state = 'FAILED')))) THEN TRUE ELSE FALSE END) AND (gw_b."next_retry_at" > ?)))))))) AND (NOT (EXISTS (SELECT 1 FROM "outbox" gw_b WHERE gw_b."aggregate_id" = "outbox"."aggregate_id" AND gw_b."seq" < "outbox"."seq" AND ((gw_b."status" IN ('FAILED', 'PENDING')) AND (CASE WHEN ((gw_b."status" = 'FAILED') OR (((gw_b."status" = 'PENDING') AND (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b."seq" AS VARCHAR(255)) AND gw_r.state = 'FAILED'))))) THEN TRUE ELSE FALSE END))))))) AND ("outbox"."seq" > ? AND ("outbox"."aggregate_id" IS NULL OR "outbox"."aggregate_id" NOT IN (?...)))) ORDER BY "seq" LIMIT ? FOR UPDATE SKIP LOCKED
--   1: source of the log's entries = 'legacy/outbox'
--   2: the cycle's time as next_retry_at takes it [now]
--   3: source of the log's entries = 'legacy/outbox'
--   4: the cycle's time as next_retry_at takes it [now]
--   5: source of the log's entries = 'legacy/outbox'
--   6: the order of the last claimed row [last_order]
--   7: the aggregates whose claimed rows wait behind another relay's (one ? each) [held_back]
--   8: the most rows to return [limit]

-- firstFailedBefore
SELECT "aggregate_id", MIN("seq") FROM "outbox" WHERE ("outbox"."status" IN ('FAILED', 'PENDING')) AND (CASE WHEN (("outbox"."status" = 'FAILED') OR ((("outbox"."status" = 'PENDING') AND (EXISTS (SELECT 1 FROM "gateway_outbox_rejection" gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST("outbox"."seq" AS VARCHAR(255)) AND gw_r.state = 'FAILED'))))) THEN TRUE ELSE FALSE END) AND "aggregate_id" IN (?...) AND "seq" < ? GROUP BY "aggregate_id"
--   1: source of the log's entries = 'legacy/outbox'
--   2: the claimed aggregates (one ? each) [aggregates]
--   3: the order of the last claimed row [last_order]

