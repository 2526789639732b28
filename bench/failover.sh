#!/usr/bin/env bash
# Kill -9 of the active broker of the replicated pair (artemis-config/ha/), again and again, under relay AND inbox load:
# the pair made from the Artemis distribution, a relay publishing and an inbox consumer applying ~200 rows/s, the
# killed broker started again after each kill and the pair whole again (fail-back) before the next one. Prints kills,
# rows, lost, duplicate effects, per-aggregate inversions, rows charged, unexplained duplicates, and the stall of the
# relay and of the inbox after a kill (p50/p99/max), and fails if anything was lost, doubled or reordered.
# It runs BrokerKillLoopStressTest (gateway-app/src/test/java/io/legacygateway/relay/, docs/testing.md) for a duration.
#
# Usage: bench/failover.sh [--minutes N] [--db postgres|mariadb] [--kills N] [--url-options 'callTimeout=5000']
#                          [--rate ROWS_PER_S] [--max-p99-ms MS]
#        bench/failover.sh --help
#   --minutes N      kill for N minutes (default 5); --kills N instead kills N times
#   --url-options    extra client options appended to the pair's URL (default: the documented URL as it is)
#   --max-p99-ms     fail when the relay's or the inbox's p99 stall exceeds it (default 5000; 0 prints only)
# Needs: PostgreSQL on 127.0.0.1:5432 (user postgres, trust, database test) or MariaDB on 127.0.0.1:3306 (root, empty
# password, database test); Java 17 and Maven. Builds and runs this checkout only (the reactor; nothing installed).
# Takes: the minutes asked plus about a minute of build and start; each kill cycle (kill, takeover, restart, resync,
# fail-back) takes 10-20 s on a quiet 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=5 kills= db=postgres options= rate= maxp99=5000
while [ $# -gt 0 ]; do
    case "$1" in
        --minutes) minutes="$2"; shift 2 ;;
        --kills) kills="$2"; shift 2 ;;
        --db) db="$2"; shift 2 ;;
        --url-options) options="$2"; shift 2 ;;
        --rate) rate="$2"; shift 2 ;;
        --max-p99-ms) maxp99="$2"; shift 2 ;;
        --help|-h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench/failover.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$db" in
    postgres) test=PostgresBrokerKillLoopStressTest ;;
    mariadb) test=MariaDbBrokerKillLoopStressTest ;;
    *) echo "bench/failover.sh: --db postgres|mariadb, not $db" >&2; exit 2 ;;
esac

args=(-B -q -pl gateway-app -am test -Plong-runs "-Dtest=$test" -Dsurefire.failIfNoSpecifiedTests=false
      -Dgateway.cds.skip=true)
if [ -n "$kills" ]; then args+=("-Dfailover.kills=$kills"); else args+=("-Dfailover.minutes=$minutes"); fi
[ -n "$options" ] && args+=("-Dfailover.urlOptions=$options")
[ -n "$rate" ] && args+=("-Dfailover.rate=$rate")
args+=("-Dfailover.maxStallP99Millis=$maxp99")

log=gateway-app/target/failover-bench.log
mkdir -p gateway-app/target
status=0
mvn "${args[@]}" >"$log" 2>&1 || status=$?
output="gateway-app/target/surefire-reports/io.legacygateway.relay.$test-output.txt"
if [ -f "$output" ] && grep -q 'FAILOVER-FIGURES' "$output"; then
    grep -h '^.*Kill [0-9]*:' "$output" | sed 's/.*: Kill/Kill/'
    grep -h 'FAILOVER-FIGURES' "$output" | sed 's/^FAILOVER-FIGURES //'
else
    echo "bench/failover.sh: no figures (the run failed before its end); Maven's output: $log" >&2
fi
if [ "$status" -ne 0 ]; then
    grep -E 'FAIL|Expect|expected' "$log" | head -20 >&2 || true
    echo "bench/failover.sh: the run failed (exit $status); Maven's output: $log" >&2
fi
exit "$status"
