-- mariadb, markMode DELETE, default mapping (rendered by GoldenSqlTest)

-- claim
SELECT `seq`, `id`, `aggregate_type`, `aggregate_id`, `event_type`, `event_version`, `payload`, `occurred_at`, `created_at`, `correlation_id`, `causation_id`, `trace_id`, CAST(`outbox`.`seq` AS CHAR(255)) AS gw_key_text FROM `outbox` WHERE ((((NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`outbox`.`seq` AS CHAR(255)) AND gw_r.state = 'FAILED'))) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`outbox`.`seq` AS CHAR(255)) AND gw_r.state = 'RETRY' AND gw_r.next_retry_at > ?))))) AND (NOT (EXISTS (SELECT 1 FROM `outbox` gw_b WHERE gw_b.`aggregate_id` = `outbox`.`aggregate_id` AND gw_b.`seq` < `outbox`.`seq` AND (((NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b.`seq` AS CHAR(255)) AND gw_r.state = 'FAILED'))) AND (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b.`seq` AS CHAR(255)) AND gw_r.state = 'RETRY' AND gw_r.next_retry_at > ?)))))))) ORDER BY `seq` LIMIT ? FOR UPDATE SKIP LOCKED
--   1: source of the log's entries = 'legacy/outbox'
--   2: source of the log's entries = 'legacy/outbox'
--   3: the cycle's time as the log takes it [now]
--   4: source of the log's entries = 'legacy/outbox'
--   5: source of the log's entries = 'legacy/outbox'
--   6: the cycle's time as the log takes it [now]
--   7: the most rows to return [limit]

-- claimPastHeldBack
SELECT `seq`, `id`, `aggregate_type`, `aggregate_id`, `event_type`, `event_version`, `payload`, `occurred_at`, `created_at`, `correlation_id`, `causation_id`, `trace_id`, CAST(`outbox`.`seq` AS CHAR(255)) AS gw_key_text FROM `outbox` WHERE ((((((NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`outbox`.`seq` AS CHAR(255)) AND gw_r.state = 'FAILED'))) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`outbox`.`seq` AS CHAR(255)) AND gw_r.state = 'RETRY' AND gw_r.next_retry_at > ?))))) AND (NOT (EXISTS (SELECT 1 FROM `outbox` gw_b WHERE gw_b.`aggregate_id` = `outbox`.`aggregate_id` AND gw_b.`seq` < `outbox`.`seq` AND (((NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b.`seq` AS CHAR(255)) AND gw_r.state = 'FAILED'))) AND (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b.`seq` AS CHAR(255)) AND gw_r.state = 'RETRY' AND gw_r.next_retry_at > ?))))))))) AND (`outbox`.`seq` > ? AND (`outbox`.`aggregate_id` IS NULL OR `outbox`.`aggregate_id` NOT IN (?...)))) ORDER BY `seq` LIMIT ? FOR UPDATE SKIP LOCKED
--   1: source of the log's entries = 'legacy/outbox'
--   2: source of the log's entries = 'legacy/outbox'
--   3: the cycle's time as the log takes it [now]
--   4: source of the log's entries = 'legacy/outbox'
--   5: source of the log's entries = 'legacy/outbox'
--   6: the cycle's time as the log takes it [now]
--   7: the order of the last claimed row [last_order]
--   8: the aggregates whose claimed rows wait behind another relay's (one ? each) [held_back]
--   9: the most rows to return [limit]

-- waitingCountUpTo
SELECT COUNT(*) FROM (SELECT 1 AS gw_one FROM `outbox` WHERE `outbox`.`seq` <= ? ORDER BY `seq` LIMIT ?) gw_c
--   1: the order of the last claimed row [last_order]
--   2: the most rows to return [limit]

-- waitingUpTo
SELECT `outbox`.`aggregate_id`, `outbox`.`seq`, CAST(`outbox`.`seq` AS CHAR(255)) AS gw_key_text FROM `outbox` WHERE ((NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`outbox`.`seq` AS CHAR(255)) AND gw_r.state = 'FAILED'))) AND (`outbox`.`seq` <= ?)) ORDER BY `seq` LIMIT ?
--   1: source of the log's entries = 'legacy/outbox'
--   2: the order of the last claimed row [last_order]
--   3: the most rows to return [limit]

-- firstWaitingNotHeld
SELECT `aggregate_id`, MIN(`seq`) FROM `outbox` WHERE NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`outbox`.`seq` AS CHAR(255)) AND gw_r.state = 'FAILED')) AND `aggregate_id` IN (?...) AND `seq` < ? AND `seq` NOT IN (?...) GROUP BY `aggregate_id`
--   1: source of the log's entries = 'legacy/outbox'
--   2: the claimed aggregates (one ? each) [aggregates]
--   3: the order of the last claimed row [last_order]
--   4: the keys this claim holds (one ? each) [claimed]

-- markPublished
DELETE FROM `outbox` WHERE `seq` IN (?...)
--   1: the rows' keys (one ? each) [keys]

-- failed.first
SELECT `seq`, `id`, `aggregate_type`, `aggregate_id`, `event_type`, `event_version`, `payload`, `occurred_at`, `created_at`, `correlation_id`, `causation_id`, `trace_id`, CAST(`outbox`.`seq` AS CHAR(255)) AS gw_key_text FROM `outbox` WHERE EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`outbox`.`seq` AS CHAR(255)) AND gw_r.state = 'FAILED') ORDER BY `seq` LIMIT ?
--   1: source of the log's entries = 'legacy/outbox'
--   2: the most rows to return [limit]

-- failed.byKeys
SELECT `seq`, `id`, `aggregate_type`, `aggregate_id`, `event_type`, `event_version`, `payload`, `occurred_at`, `created_at`, `correlation_id`, `causation_id`, `trace_id`, CAST(`outbox`.`seq` AS CHAR(255)) AS gw_key_text FROM `outbox` WHERE EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`outbox`.`seq` AS CHAR(255)) AND gw_r.state = 'FAILED') AND CAST(`outbox`.`seq` AS CHAR(255)) IN (?...)
--   1: source of the log's entries = 'legacy/outbox'
--   2: the rows' keys as text (one ? each) [key_texts]

-- waiting
SELECT `seq`, `id`, `aggregate_type`, `aggregate_id`, `event_type`, `event_version`, `payload`, `occurred_at`, `created_at`, `correlation_id`, `causation_id`, `trace_id`, CAST(`outbox`.`seq` AS CHAR(255)) AS gw_key_text FROM `outbox` WHERE NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`outbox`.`seq` AS CHAR(255)) AND gw_r.state = 'FAILED')) ORDER BY `seq` LIMIT ?
--   1: source of the log's entries = 'legacy/outbox'
--   2: the most rows to return [limit]

-- backlog.pending
SELECT COUNT(*) FROM `outbox` WHERE NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`outbox`.`seq` AS CHAR(255)) AND gw_r.state = 'FAILED'))
--   1: source of the log's entries = 'legacy/outbox'

-- backlog.oldest
SELECT `created_at` FROM `outbox` WHERE NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`outbox`.`seq` AS CHAR(255)) AND gw_r.state = 'FAILED')) ORDER BY `seq` LIMIT ?
--   1: source of the log's entries = 'legacy/outbox'
--   2: one row = 1

-- log.entries
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM `gateway_outbox_rejection` WHERE source_table = ? AND row_key IN (?...)
--   1: source of the log's entries = 'legacy/outbox'
--   2: the rows' keys as text (one ? each) [key_texts]

-- log.record
INSERT INTO `gateway_outbox_rejection` (source_table, row_key, relay, event_id, reason, attempts, state, next_retry_at, rejected_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE relay = VALUES(relay), event_id = VALUES(event_id), reason = VALUES(reason), attempts = VALUES(attempts), state = VALUES(state), next_retry_at = VALUES(next_retry_at), rejected_at = VALUES(rejected_at)
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
DELETE FROM `gateway_outbox_rejection` WHERE source_table = ? AND row_key IN (?...)
--   1: source of the log's entries = 'legacy/outbox'
--   2: the rows' keys as text (one ? each) [key_texts]

-- log.due
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM `gateway_outbox_rejection` WHERE source_table = ? AND state = 'RETRY' AND (next_retry_at IS NULL OR next_retry_at <= ?) ORDER BY rejected_at, row_key LIMIT ?
--   1: source of the log's entries = 'legacy/outbox'
--   2: the cycle's time as the log takes it [now]
--   3: the most rows to return [limit]

-- log.failed
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM `gateway_outbox_rejection` WHERE source_table = ? AND state = 'FAILED' ORDER BY rejected_at, row_key LIMIT ?
--   1: source of the log's entries = 'legacy/outbox'
--   2: the most rows to return [limit]

-- log.reset
UPDATE `gateway_outbox_rejection` SET state = 'RETRY', attempts = 0, next_retry_at = NULL WHERE source_table = ? AND state = 'FAILED' AND row_key IN (?...)
--   1: source of the log's entries = 'legacy/outbox'
--   2: the rows' keys as text (one ? each) [key_texts]

-- log.countFailed
SELECT COUNT(*) FROM `gateway_outbox_rejection` WHERE source_table = ? AND state = 'FAILED'
--   1: source of the log's entries = 'legacy/outbox'

