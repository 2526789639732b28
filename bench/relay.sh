#!/usr/bin/env bash
# The relay lines of bench/run.sh only (ceilings, hand-written pipeline, gateway relay); same options as bench/run.sh.
# Needs: PostgreSQL and/or MariaDB as bench/run.sh says (--db). Takes: --quick ~3 minutes per database, default ~20-40.
exec "$(dirname "$0")/run.sh" --only relay "$@"
