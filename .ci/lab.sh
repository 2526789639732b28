#!/usr/bin/env bash
# Runs the reconciliation lab (java -jar gateway-demo.jar lab) on PostgreSQL with the built demo jar, as an operator
# would, and fails when a probe is not classified as Durable Outbox Reconciliation Record v1 expects. Called by .ci/run
# after the tests; needs gateway-demo/target/gateway-demo.jar (mvn -B package) and PostgreSQL on 127.0.0.1:5432.
set -euo pipefail
cd "$(dirname "$0")/.."
psql -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'gateway_lab'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -d postgres -c "CREATE DATABASE gateway_lab"
java -jar gateway-demo/target/gateway-demo.jar --spring.profiles.active=lab-ci \
  --spring.config.additional-location=file:.ci/lab.yml lab --data-source=lab
