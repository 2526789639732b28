#!/usr/bin/env bash
# The inbox lines of bench/run.sh only (hand-written batched and naive inboxes, gateway inbox); same options as
# bench/run.sh. Needs: PostgreSQL and/or MariaDB as bench/run.sh says (--db). Takes: --quick ~2 minutes per database.
exec "$(dirname "$0")/run.sh" --only inbox "$@"
