#!/usr/bin/env bash
# Start time: java to readiness UP and to the first published event, the plain jar next to the extracted jar with its
# class data sharing archive (gateway-demo/target/gateway-demo/ for the demo, gateway-app/target/gateway-app/ for a
# deployment, built by mvn package), runs alternated so that both see the same machine. Each start is a restart: data
# kept from the previous run, one untimed warm-up start first.
#
# Usage: bench/start.sh [runs=5] [demo|deployment] [port=18095]
#   demo        gateway-demo.jar: H2, embedded broker, routes/demo; first publish = the demo's first order
#   deployment  gateway-app.jar: one relay and one consumer on PostgreSQL (127.0.0.1:5432, user postgres, trust; database
#               gateway_start_bench, dropped and created here) and a standalone Artemis started here on port+4;
#               one outbox row waits before each start (a crash left it behind)
# Builds this checkout (mvn package, nothing installed); runs about runs x 2 x (start + 3 s); needs curl (and psql).
# Each start waits (at most 120 s) for a second in which the machine's CPU is less than 15 % busy (/proc/stat): the build
# before, or the start before, would otherwise still run in the next one's time; each run prints that share.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
runs=${1:-5}
mode=${2:-demo}
port=${3:-18095}
case "$mode" in demo|deployment) ;; *) echo "usage: bench/start.sh [runs] [demo|deployment] [port]" >&2; exit 2;; esac

mvn -B -q package -DskipTests
APP=$ROOT/gateway-app/target
jar=gateway-app
[[ $mode == demo ]] && jar=gateway-demo
TARGET=$ROOT/$jar/target
[[ -f $TARGET/$jar/app.jsa ]] || { echo "no $TARGET/$jar/app.jsa (built with -Dgateway.cds.skip?)" >&2; exit 1; }
PLAIN=(java -jar "$TARGET/$jar.jar")
CDS=(java -XX:SharedArchiveFile="$TARGET/$jar/app.jsa" -jar "$TARGET/$jar/$jar.jar")

work=$(mktemp -d)
broker_pid=
cleanup() {
    if [[ -n $broker_pid ]]; then kill "$broker_pid" && wait "$broker_pid" || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
args=(--server.port="$port")
credentials=demo:demo

if [[ $mode == demo ]]; then
    mkdir -p routes && cp -r "$ROOT/routes/demo" routes/
else
    db=gateway_start_bench
    bport=$((port + 4))
    psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
    psql -q -h 127.0.0.1 -U postgres -d $db -c "CREATE TABLE bench_effect (event_id VARCHAR(64) PRIMARY KEY)"
    (cd "$ROOT" && mvn -B -q -pl gateway-app dependency:unpack@unpack-artemis -DskipTests=false)
    "$APP"/artemis/apache-artemis-*/bin/artemis create "$work/broker" --user admin --password admin --require-login \
        --silent --no-web --host 127.0.0.1 --java-memory 512M --java-options=-Dartemis.port=$bport >/dev/null
    cp "$ROOT"/artemis-config/{broker.xml,artemis-users.properties,artemis-roles.properties} "$work/broker/etc/"
    "$work/broker/bin/artemis" run >"$work/broker.log" 2>&1 &
    broker_pid=$!
    until (exec 3<>/dev/tcp/127.0.0.1/$bport) 2>/dev/null; do sleep 0.2; done
    mkdir -p config routes
    cat >config/application-bench.yml <<EOF
gateway:
  source: urn:legacy-gateway:start-bench
  datasources:
    bench: { url: "jdbc:postgresql://127.0.0.1:5432/$db", username: postgres, password: "", initialize-schema: true }
  security:
    users:
      bench: { password: start-bench-operator, roles: [operator] }
spring:
  artemis: { broker-url: "tcp://127.0.0.1:$bport", user: gateway, password: gateway }
camel:
  main:
    routes-include-pattern: file:routes/*.yaml
EOF
    cat >routes/bench.yaml <<'EOF'
- templatedRoute:
    routeTemplateRef: outbox-relay
    parameters:
      - { name: relay, value: bench }
      - { name: dataSource, value: bench }
      - { name: destination, value: queue:bench.events }
- templatedRoute:
    routeTemplateRef: inbox-consumer
    parameters:
      - { name: consumer, value: bench }
      - { name: dataSource, value: bench }
      - { name: queue, value: bench.events }
      - { name: accept, value: "BenchEvent:1" }
      - { name: effectSql.BenchEvent, value: "INSERT INTO bench_effect (event_id) VALUES (:id)" }
EOF
    args+=(--spring.profiles.active=bench)
    credentials=bench:start-bench-operator
fi

before_start() {
    [[ $mode == deployment ]] || return 0
    psql -q -h 127.0.0.1 -U postgres -d $db -c "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload)
        VALUES ('bench', 'a1', 'BenchEvent', '{}')" 2>/dev/null || true  # the table exists after the warm-up start
}

cpu_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }

# waits for a second in which the whole machine's CPU is less than 15 % busy (at most 120 s); prints that share (%)
quiet_machine() {
    local since=$SECONDS busy0 all0 busy1 all1 share
    while :; do
        read -r busy0 all0 < <(cpu_jiffies)
        sleep 1
        read -r busy1 all1 < <(cpu_jiffies)
        share=$(( 100 * (busy1 - busy0) / (all1 - all0 > 0 ? all1 - all0 : 1) ))
        (( share < 15 || SECONDS - since >= 120 )) && break
    done
    echo "$share"
}

# one start of "$@": prints "<ms to readiness UP> <ms to the first gateway_outbox_published_total increase>"
# (WARM_UP=1: readiness only)
start_once() {
    before_start
    local t0 pid ready published busy
    busy=$(quiet_machine)
    t0=$(date +%s%N)
    "$@" "${args[@]}" >"$work/gateway.log" 2>&1 &
    pid=$!
    until curl -fs "http://127.0.0.1:$port/actuator/health/readiness" >/dev/null; do
        kill -0 $pid 2>/dev/null || { echo "the gateway exited; its log: $work/gateway.log" >&2; cat "$work/gateway.log" >&2; exit 1; }
        sleep 0.1
    done
    ready=$(date +%s%N)
    until [[ ${WARM_UP:-} == 1 ]] || curl -fs -u "$credentials" "http://127.0.0.1:$port/actuator/prometheus" \
            | awk '/^gateway_outbox_published_total/ { n += $NF } END { exit !(n > 0) }'; do
        sleep 0.1
    done
    published=$(date +%s%N)
    kill $pid && wait $pid || true
    echo "$(( (ready - t0) / 1000000 )) $(( (published - t0) / 1000000 )) (CPU $busy % busy the second before)"
}

stats() { # label, file of "ready published" lines in ms
    local r p n
    r=($(cut -d' ' -f1 "$2" | sort -n))
    p=($(cut -d' ' -f2 "$2" | sort -n))
    n=${#r[@]}
    awk -v l="$1" -v r0="${r[0]}" -v rm="${r[$(((n - 1) / 2))]}" -v rn="${r[$((n - 1))]}" \
        -v p0="${p[0]}" -v pm="${p[$(((n - 1) / 2))]}" -v pn="${p[$((n - 1))]}" 'BEGIN {
        printf "%-30s readiness UP min %5.1f median %5.1f max %5.1f s | first publish min %5.1f median %5.1f max %5.1f s\n",
            l, r0 / 1000, rm / 1000, rn / 1000, p0 / 1000, pm / 1000, pn / 1000 }'
}

echo "start time, $mode, $runs runs each, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
WARM_UP=1 start_once "${PLAIN[@]}" >/dev/null  # warm-up: schema, data directories, page cache
: >"$work/plain" && : >"$work/cds"
for ((i = 1; i <= runs; i++)); do
    start_once "${PLAIN[@]}" | tee -a "$work/plain" | sed "s/^/run $i java -jar $jar.jar (ms): /"
    start_once "${CDS[@]}" | tee -a "$work/cds" | sed "s/^/run $i extracted + app.jsa      (ms): /"
done
stats "java -jar $jar.jar" "$work/plain"
stats "extracted jar + app.jsa" "$work/cds"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
