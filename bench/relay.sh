#!/usr/bin/env bash
# Relay throughput against its two raw ceilings (see gateway-app/src/test/java/io/legacygateway/bench/RelayBenchmark).
# Usage: bench/relay.sh [rows=100000] [batchSize=100]
# Needs PostgreSQL on 127.0.0.1:5432 (user postgres) and the Maven build; starts its own standalone Artemis.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/classpath.sh
java -Xmx1g -cp "$CP" io.legacygateway.bench.RelayBenchmark "${1:-100000}" "${2:-100}"
