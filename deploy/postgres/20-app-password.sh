#!/usr/bin/env bash
# Runs once, when the compose database's volume is first initialised (after 10-supabase-roles.sql):
# gives the app's login role `postgres` (created there, not a superuser) the password the app
# connects with. psql reads the statement from stdin so that :'password' is quoted by psql.
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v password="${THREADKEEPER_DB_PASSWORD:?set THREADKEEPER_DB_PASSWORD}" <<'SQL'
alter role postgres with login password :'password';
SQL
