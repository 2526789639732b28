#!/usr/bin/env bash
# Inbox throughput on PostgreSQL: the gateway's inbox (inbox row + effect in one transaction, ack after commit) next
# to the naive idempotent consumer (Camel JdbcMessageIdRepository key committed on its own, then the effect), same
# broker, same JMS consumer settings, same effect (see gateway-app/src/test/java/io/legacygateway/bench/InboxBenchmark).
# Usage: bench/inbox.sh [messages=20000] [sessions=4] [batchSize=the inbox template's default]
# Needs PostgreSQL on 127.0.0.1:5432 (user postgres) and the Maven build; starts its own standalone Artemis.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/classpath.sh
java -Xmx1g -cp "$CP" io.legacygateway.bench.InboxBenchmark "${1:-20000}" "${2:-4}" ${3:+"$3"}
