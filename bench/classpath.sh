# Sourced by bench/run.sh. Needs no database; takes about a minute (longer for the first build of a checkout).
# Builds THIS checkout only (main and test classes of legacy-adapters and gateway-app in one reactor; nothing is
# installed into ~/.m2, so a bench never runs another checkout's jar), unpacks the Artemis distribution into
# gateway-app/target/artemis, and sets CP (this checkout's target/ directories first, then the third-party jars) and
# the system properties the test support reads (artemis.home, gateway.repo.root).
ROOT=$(pwd)
# Maven's output is shown only when the build fails (it prints its errors on stdout)
if ! BUILD=$(mvn -B -q -pl gateway-app -am test-compile dependency:build-classpath \
    -Dmdep.outputFile="$ROOT/gateway-app/target/bench.classpath" -Dmdep.includeScope=test 2>&1); then
    echo "$BUILD" >&2
    echo "bench/classpath.sh: building this checkout failed (above)" >&2
    exit 1
fi
# the reactor resolves legacy-adapters to its target/classes; a jar of it in the classpath would be someone else's
if grep -q 'io/legacygateway/' "$ROOT/gateway-app/target/bench.classpath"; then
    echo "bench/classpath.sh: the classpath names a legacy-gateway jar from a Maven repository:" >&2
    tr ':' '\n' <"$ROOT/gateway-app/target/bench.classpath" | grep 'io/legacygateway/' >&2
    exit 1
fi
CP="$ROOT/gateway-app/target/test-classes:$ROOT/gateway-app/target/classes:$(cat "$ROOT/gateway-app/target/bench.classpath")"
export JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS:-} -Dartemis.home=$ROOT/gateway-app/target/artemis/apache-artemis-2.40.0 -Dgateway.repo.root=$ROOT"
