-- mariadb, markMode TIMESTAMP, legacy mapping (rendered by GoldenSqlTest)

-- claim
SELECT `evt_no`, `ref_no`, `evt_kind`, `body`, `created`, CAST(`evt_queue`.`evt_no` AS CHAR(255)) AS gw_key_text FROM `evt_queue` WHERE ((((((`evt_queue`.`done_at` IS NULL) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED'))))) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'RETRY' AND gw_r.next_retry_at > ?))))) AND (NOT (EXISTS (SELECT 1 FROM `evt_queue` gw_b WHERE gw_b.`ref_no` = `evt_queue`.`ref_no` AND gw_b.`evt_no` < `evt_queue`.`evt_no` AND (((((gw_b.`done_at` IS NULL) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED'))))) AND (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b.`evt_no` AS CHAR(255)) AND gw_r.state = 'RETRY' AND gw_r.next_retry_at > ?)))))))) ORDER BY `evt_no` LIMIT ? FOR UPDATE SKIP LOCKED
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: source of the log's entries = 'legacy/evt_queue'
--   3: the cycle's time as the log takes it [now]
--   4: source of the log's entries = 'legacy/evt_queue'
--   5: source of the log's entries = 'legacy/evt_queue'
--   6: the cycle's time as the log takes it [now]
--   7: the most rows to return [limit]

-- claimPastHeldBack
SELECT `evt_no`, `ref_no`, `evt_kind`, `body`, `created`, CAST(`evt_queue`.`evt_no` AS CHAR(255)) AS gw_key_text FROM `evt_queue` WHERE ((((((((`evt_queue`.`done_at` IS NULL) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED'))))) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'RETRY' AND gw_r.next_retry_at > ?))))) AND (NOT (EXISTS (SELECT 1 FROM `evt_queue` gw_b WHERE gw_b.`ref_no` = `evt_queue`.`ref_no` AND gw_b.`evt_no` < `evt_queue`.`evt_no` AND (((((gw_b.`done_at` IS NULL) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED'))))) AND (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(gw_b.`evt_no` AS CHAR(255)) AND gw_r.state = 'RETRY' AND gw_r.next_retry_at > ?))))))))) AND (`evt_queue`.`evt_no` > ? AND (`evt_queue`.`ref_no` IS NULL OR `evt_queue`.`ref_no` NOT IN (?...)))) ORDER BY `evt_no` LIMIT ? FOR UPDATE SKIP LOCKED
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
SELECT COUNT(*) FROM (SELECT 1 AS gw_one FROM `evt_queue` WHERE ((`evt_queue`.`done_at` IS NULL) AND (`evt_queue`.`evt_no` <= ?)) ORDER BY `evt_no` LIMIT ?) gw_c
--   1: the order of the last claimed row [last_order]
--   2: the most rows to return [limit]

-- waitingUpTo
SELECT `evt_queue`.`ref_no`, `evt_queue`.`evt_no`, CAST(`evt_queue`.`evt_no` AS CHAR(255)) AS gw_key_text FROM `evt_queue` WHERE ((((`evt_queue`.`done_at` IS NULL) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED'))))) AND (`evt_queue`.`evt_no` <= ?)) ORDER BY `evt_no` LIMIT ?
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the order of the last claimed row [last_order]
--   3: the most rows to return [limit]

-- firstWaitingNotHeld
SELECT `ref_no`, MIN(`evt_no`) FROM `evt_queue` WHERE ((`evt_queue`.`done_at` IS NULL) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED')))) AND `ref_no` IN (?...) AND `evt_no` < ? AND `evt_no` NOT IN (?...) GROUP BY `ref_no`
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the claimed aggregates (one ? each) [aggregates]
--   3: the order of the last claimed row [last_order]
--   4: the keys this claim holds (one ? each) [claimed]

-- markPublished
UPDATE `evt_queue` SET `done_at` = ? WHERE `evt_no` IN (?...)
--   1: the time of the write as done_at takes it [at]
--   2: the rows' keys (one ? each) [keys]

-- recordFailure.retry
UPDATE `evt_queue` SET `err_text` = ? WHERE `evt_no` = ?
--   1: the failure's reason [reason]
--   2: the row's key [key]

-- recordFailure.parked
UPDATE `evt_queue` SET `done_at` = ?, `err_text` = ? WHERE `evt_no` = ?
--   1: the time of the write as done_at takes it [at]
--   2: the failure's reason [reason]
--   3: the row's key [key]

-- failed.first
SELECT `evt_no`, `ref_no`, `evt_kind`, `body`, `created`, CAST(`evt_queue`.`evt_no` AS CHAR(255)) AS gw_key_text, `err_text` FROM `evt_queue` WHERE EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED') ORDER BY `evt_no` LIMIT ?
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the most rows to return [limit]

-- failed.byKeys
SELECT `evt_no`, `ref_no`, `evt_kind`, `body`, `created`, CAST(`evt_queue`.`evt_no` AS CHAR(255)) AS gw_key_text, `err_text` FROM `evt_queue` WHERE EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED') AND CAST(`evt_queue`.`evt_no` AS CHAR(255)) IN (?...)
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the rows' keys as text (one ? each) [key_texts]

-- waiting
SELECT `evt_no`, `ref_no`, `evt_kind`, `body`, `created`, CAST(`evt_queue`.`evt_no` AS CHAR(255)) AS gw_key_text FROM `evt_queue` WHERE ((`evt_queue`.`done_at` IS NULL) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED')))) ORDER BY `evt_no` LIMIT ?
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the most rows to return [limit]

-- backlog.pending
SELECT COUNT(*) FROM `evt_queue` WHERE ((`evt_queue`.`done_at` IS NULL) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED'))))
--   1: source of the log's entries = 'legacy/evt_queue'

-- backlog.oldest
SELECT `created` FROM `evt_queue` WHERE ((`evt_queue`.`done_at` IS NULL) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED')))) ORDER BY `evt_no` LIMIT ?
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: one row = 1

-- retry
UPDATE `evt_queue` SET `done_at` = NULL WHERE `evt_no` = ? AND EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED')
--   1: the row's key [key]
--   2: source of the log's entries = 'legacy/evt_queue'

-- retention.select
SELECT `evt_no` FROM `evt_queue` WHERE ((`evt_queue`.`done_at` < ?) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED')))) ORDER BY `evt_no` LIMIT ?
--   1: the retention cutoff as done_at takes it [cutoff]
--   2: source of the log's entries = 'legacy/evt_queue'
--   3: the most rows to return [limit]

-- retention.delete
DELETE FROM `evt_queue` WHERE `evt_no` IN (?...) AND ((`evt_queue`.`done_at` < ?) AND (NOT (EXISTS (SELECT 1 FROM `gateway_outbox_rejection` gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = CAST(`evt_queue`.`evt_no` AS CHAR(255)) AND gw_r.state = 'FAILED'))))
--   1: the rows' keys (one ? each) [keys]
--   2: the retention cutoff as done_at takes it [cutoff]
--   3: source of the log's entries = 'legacy/evt_queue'

-- log.entries
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM `gateway_outbox_rejection` WHERE source_table = ? AND row_key IN (?...)
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the rows' keys as text (one ? each) [key_texts]

-- log.record
INSERT INTO `gateway_outbox_rejection` (source_table, row_key, relay, event_id, reason, attempts, state, next_retry_at, rejected_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE relay = VALUES(relay), event_id = VALUES(event_id), reason = VALUES(reason), attempts = VALUES(attempts), state = VALUES(state), next_retry_at = VALUES(next_retry_at), rejected_at = VALUES(rejected_at)
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
DELETE FROM `gateway_outbox_rejection` WHERE source_table = ? AND row_key IN (?...)
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the rows' keys as text (one ? each) [key_texts]

-- log.due
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM `gateway_outbox_rejection` WHERE source_table = ? AND state = 'RETRY' AND (next_retry_at IS NULL OR next_retry_at <= ?) ORDER BY rejected_at, row_key LIMIT ?
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the cycle's time as the log takes it [now]
--   3: the most rows to return [limit]

-- log.failed
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM `gateway_outbox_rejection` WHERE source_table = ? AND state = 'FAILED' ORDER BY rejected_at, row_key LIMIT ?
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the most rows to return [limit]

-- log.reset
UPDATE `gateway_outbox_rejection` SET state = 'RETRY', attempts = 0, next_retry_at = NULL WHERE source_table = ? AND state = 'FAILED' AND row_key IN (?...)
--   1: source of the log's entries = 'legacy/evt_queue'
--   2: the rows' keys as text (one ? each) [key_texts]

-- log.countFailed
SELECT COUNT(*) FROM `gateway_outbox_rejection` WHERE source_table = ? AND state = 'FAILED'
--   1: source of the log's entries = 'legacy/evt_queue'

