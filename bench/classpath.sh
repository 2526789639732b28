# Sourced by bench/run.sh. Needs no database; takes about a minute (longer for the first build of a checkout).
# Builds THIS checkout only (legacy-adapters, gateway-app and the harness, module gateway-bench, in one reactor;
# nothing is installed into ~/.m2, so a bench never runs another checkout's jar), unpacks the Artemis distribution
# into gateway-bench/target/artemis, and sets CP (this checkout's jars first, then the third-party jars) and the
# system properties the test support reads (artemis.home, gateway.repo.root).
ROOT=$(pwd)
# Maven's output is shown only when the build fails (it prints its errors on stdout)
if ! BUILD=$(mvn -B -q -pl gateway-bench -am package dependency:build-classpath -DskipTests -Dgateway.cds.skip=true \
    -Dgateway.bench.skipArtemis=false -Dmdep.outputFile="$ROOT/gateway-bench/target/bench.classpath" 2>&1); then
    echo "$BUILD" >&2
    echo "bench/classpath.sh: building this checkout failed (above)" >&2
    exit 1
fi
# the reactor resolves the gateway's modules to their target/ jars; one from a Maven repository would be someone else's
if grep -q 'io/legacygateway/' "$ROOT/gateway-bench/target/bench.classpath"; then
    echo "bench/classpath.sh: the classpath names a legacy-gateway jar from a Maven repository:" >&2
    tr ':' '\n' <"$ROOT/gateway-bench/target/bench.classpath" | grep 'io/legacygateway/' >&2
    exit 1
fi
CP="$ROOT/gateway-bench/target/classes:$(cat "$ROOT/gateway-bench/target/bench.classpath")"
export JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS:-} -Dartemis.home=$ROOT/gateway-bench/target/artemis/apache-artemis-2.40.0 -Dgateway.repo.root=$ROOT"
