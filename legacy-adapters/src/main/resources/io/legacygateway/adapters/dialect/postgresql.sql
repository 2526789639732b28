-- PostgreSQL (tested). The common statements are valid PostgreSQL; only differences go here.

-- name: inbox.record
-- 1 row: first delivery; 0 rows: the (message, consumer) row exists, or another transaction inserting it committed
-- while this one waited. No exception, so the transaction stays usable (a failed INSERT would abort it).
INSERT INTO {table} (message_id, consumer_name, processed_at) VALUES (:messageId, :consumer, :processedAt) ON CONFLICT DO NOTHING

-- name: inbox.sequence.create
INSERT INTO {table} (consumer_name, aggregate_key, last_sequence) VALUES (:consumer, :aggregate, 0) ON CONFLICT DO NOTHING
