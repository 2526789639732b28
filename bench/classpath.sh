# Sourced by the bench scripts: builds the gateway and its test classes, unpacks Artemis, and sets CP and the system
# properties the test support reads (artemis.home, gateway.repo.root).
mvn -B -q install -DskipTests -Dmaven.test.skip.exec=true >/dev/null
mvn -B -q -pl gateway-app test-compile dependency:unpack@unpack-artemis -DskipTests=false \
    dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test >/dev/null
ROOT=$(pwd)
CP="$ROOT/gateway-app/target/test-classes:$ROOT/gateway-app/target/classes:$(cat gateway-app/target/bench.classpath)"
export JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS:-} -Dartemis.home=$ROOT/gateway-app/target/artemis/apache-artemis-2.40.0 -Dgateway.repo.root=$ROOT"
