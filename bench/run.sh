#!/usr/bin/env bash
# Throughput of the gateway's relay and inbox next to hand-written references, in one run: same database, same
# standalone Artemis 2.40.0 broker (durable, started by the bench), same ~1 KiB CloudEvents messages, same batch sizes.
# Prints events/s, CPU µs per event of the whole machine (/proc/stat), the bench JVM's RSS for the gateway's lines (the
# gateway runs inside the bench JVM) and each gateway figure as a ratio to its ceiling.
# See gateway-bench/src/main/java/io/legacygateway/bench/Benchmark and docs/benchmarks.md.
#
# Usage: bench/run.sh [--db postgres|mariadb|both] [--rows N] [--batch N[,N...]] [--messages N] [--quick] [--only ...]
#        bench/run.sh --help
# Needs: PostgreSQL on 127.0.0.1:5432 (user postgres, trust, database test) for --db postgres, MariaDB on
# 127.0.0.1:3306 (root, empty password, database test) for --db mariadb, both by default; Java 17 and Maven.
# Builds and runs this checkout only (bench/classpath.sh; nothing is installed into ~/.m2).
# Takes: --quick about 5 minutes per database on a quiet 2-core machine (10k rows, 2k messages, backlog 10k/100k);
# the default run (100k rows, 100k messages, backlog 100k/1M) 30-60 minutes per database; longer on a busy machine.
# --latency [--rate N[,N...]] [--seconds N] [--settle N] [--no-analyze] [--only relay|inbox]: commit -> on the queue
# p50/p99/max of the relay route (its default batchSize unless --batch) polling
# (pollInterval as given, default 100ms) and on PostgreSQL woken by NOTIFY, each after --settle seconds at the rate
# (reported apart), then the inbox's; about 6 minutes per database.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/classpath.sh
# the machine's servers, which the figures are about (the tests' support would otherwise start embedded ones)
export GATEWAY_TEST_DATABASES="${GATEWAY_TEST_DATABASES:-local}"
exec java -Xmx1g -XX:+UseG1GC -cp "$CP" io.legacygateway.bench.Benchmark "$@"
