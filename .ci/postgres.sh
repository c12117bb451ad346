#!/usr/bin/env bash
# Installs PostgreSQL from Debian's packages (if missing), starts a local cluster on 127.0.0.1:5432 and
# creates the role and database cfslab/cfslab. Idempotent: safe to run when everything is already there.
# It exports nothing itself: it prints the three variables that make the store tests use this server:
#   eval "$(bash .ci/postgres.sh | grep '^export ')"
# Needs root (apt-get, runuser).
set -euo pipefail

log() { echo "postgres.sh: $*" >&2; }

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  log "installing postgresql"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi

VER=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$VER main"; then
  log "creating cluster $VER main"
  pg_createcluster "$VER" main -p 5432 >&2
fi
PORT=$(pg_lsclusters -h | awk -v v="$VER" '$1==v && $2=="main" {print $3}')
if [ "$PORT" != "5432" ]; then
  log "cluster $VER main listens on $PORT, not 5432"
  exit 1
fi

if ! pg_lsclusters -h | awk -v v="$VER" '$1==v && $2=="main" {print $4}' | grep -q online; then
  log "starting cluster $VER main"
  pg_ctlcluster "$VER" main start >&2
fi
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p 5432 && break
  sleep 1
done
pg_isready -h 127.0.0.1 -p 5432 >&2

runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 -d postgres >&2 <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'cfslab') THEN
    CREATE ROLE cfslab LOGIN PASSWORD 'cfslab';
  END IF;
END $$;
SQL
if ! runuser -u postgres -- psql -tAc "SELECT 1 FROM pg_database WHERE datname = 'cfslab'" -d postgres | grep -q 1; then
  runuser -u postgres -- createdb -O cfslab cfslab >&2
fi
log "PostgreSQL $VER ready on 127.0.0.1:5432, database cfslab, user cfslab"

echo "export CFSLAB_TEST_POSTGRES_URL=jdbc:postgresql://127.0.0.1:5432/cfslab"
echo "export CFSLAB_TEST_POSTGRES_USER=cfslab"
echo "export CFSLAB_TEST_POSTGRES_PASSWORD=cfslab"
