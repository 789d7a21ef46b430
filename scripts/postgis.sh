#!/usr/bin/env bash
# A local PostgreSQL 15 + PostGIS 3 cluster for development and the tests (make postgis-up / postgis-down).
#
#   scripts/postgis.sh up     install what is missing, start the cluster, create the database;
#                             the last line printed is the catalog URL (no password in it)
#   scripts/postgis.sh down   stop the cluster (its files stay; `up` starts it again in about a second)
#   scripts/postgis.sh url    print the URL when the cluster is running, else exit 69
#
# PostgreSQL refuses to run as root: as root the cluster runs as the `postgres` OS user (made by the
# Debian package); as anyone else, as that user. It listens on 127.0.0.1 and a unix socket in its own
# folder only. The role `lookaround` gets a random password kept in a password file (mode 0600) that
# the URL names with `passfile=`: libpq reads it from there, nothing prints it.
#
# Environment: LOOKAROUND_POSTGIS_DIR (default .build/postgis in the repository), LOOKAROUND_POSTGIS_PORT
# (default 55432; the port the cluster is started on, also when it was created with another one).
# When the port is taken by anything but this cluster (another program, or the cluster of another
# checkout), `up` names what holds it and exits 69.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
dir=${LOOKAROUND_POSTGIS_DIR:-$repo/.build/postgis}
port=${LOOKAROUND_POSTGIS_PORT:-55432}
version=15
bin=/usr/lib/postgresql/$version/bin
data=$dir/data
passfile=$dir/pgpass
database=lookaround
role=lookaround
command=${1:-up}

# Runs a command as the cluster's OS user.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

url() { echo "postgresql://$role@127.0.0.1:$port/$database?passfile=$passfile"; }

running() { [[ -x $bin/pg_ctl ]] && as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; }

source "$here/port-holder.sh"

admin_psql() { as_owner "$bin/psql" -X -q -h "$dir" -p "$port" -d "${1:-postgres}" -v ON_ERROR_STOP=1 -tA -c "$2"; }

case $command in
  url)
    running || { echo "postgis: the cluster in $data is not running; start it with 'make postgis-up'" >&2; exit 69; }
    url ;;
  down)
    if running; then
      as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
      echo "postgis: stopped the cluster in $data" >&2
    else
      echo "postgis: no cluster running in $data" >&2
    fi ;;
  up)
    need=()
    for package in "postgresql-$version" "postgresql-$version-postgis-3"; do
      [[ $(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true) == "install ok installed" ]] || need+=("$package")
    done
    if ((${#need[@]})); then
      echo "postgis: installing ${need[*]}" >&2
      sudo=(); [[ $(id -u) -ne 0 ]] && sudo=(sudo)
      export DEBIAN_FRONTEND=noninteractive
      "${sudo[@]}" apt-get update -qq
      "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    fi
    mkdir -p "$dir"
    [[ $(id -u) -eq 0 ]] && chown postgres: "$dir"
    if [[ ! -s $data/PG_VERSION ]]; then
      echo "postgis: creating a cluster in $data (port $port)" >&2
      as_owner "$bin/initdb" -D "$data" -E UTF8 --locale=C.UTF-8 --auth-local=peer --auth-host=scram-sha-256 >/dev/null
      cat >>"$data/postgresql.conf" <<EOF
# lookaround: local only, sized for a small development machine
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 200
shared_buffers = 256MB
fsync = on
EOF
      # The role connects over TCP (scram) or the socket with its password; the admin through peer.
      echo "local all $role scram-sha-256" >"$data/pg_hba.conf.new"
      cat "$data/pg_hba.conf" >>"$data/pg_hba.conf.new"
      as_owner cp "$data/pg_hba.conf.new" "$data/pg_hba.conf"
      rm -f "$data/pg_hba.conf.new"
    fi
    if ! running; then
      holder=$(port_holder "$port")
      if [[ -n $holder ]]; then
        echo "postgis: port $port on 127.0.0.1 is taken by $holder" >&2
        if [[ $holder =~ postgres.*-D\ ([^ ]+)/data ]]; then
          other=${BASH_REMATCH[1]}
          echo "postgis: that is the cluster in $other: use its URL (LOOKAROUND_POSTGIS_DIR=$other scripts/postgis.sh url)" >&2
          echo "postgis: or stop it (LOOKAROUND_POSTGIS_DIR=$other scripts/postgis.sh down)," >&2
        else
          echo "postgis: stop that program," >&2
        fi
        echo "postgis: or start this cluster on another port: LOOKAROUND_POSTGIS_PORT=55433 scripts/postgis.sh up" >&2
        exit 69
      fi
      as_owner "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -o "-p $port" -w -t 30 start >/dev/null \
        || { echo "postgis: the server did not start; see $dir/server.log" >&2; tail -5 "$dir/server.log" >&2; exit 69; }
    fi
    # Password files of older clusters name the port they were made with.
    [[ -s $passfile ]] && sed -i -E 's/^([^:]*):[0-9]+:/\1:*:/' "$passfile"
    if [[ ! -s $passfile ]]; then
      password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
      # Any port: LOOKAROUND_POSTGIS_PORT may move the cluster later.
      (umask 077; echo "127.0.0.1:*:*:$role:$password" >"$passfile"; echo "$dir:*:*:$role:$password" >>"$passfile")
      admin_psql postgres "DROP ROLE IF EXISTS $role" >/dev/null 2>&1 || true
      admin_psql postgres "CREATE ROLE $role LOGIN CREATEDB PASSWORD '$password'" >/dev/null
      unset password
    fi
    # DROP DATABASE … WITH (FORCE) of a test database fails for a role without pg_signal_backend when an
    # autovacuum worker is in that database ("must be a member of the role whose process is being
    # terminated"): seen after COPY filled a fresh test database, 2026-12-01.
    [[ $(admin_psql postgres "SELECT 1 FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid JOIN pg_roles u ON u.oid = m.member
                              WHERE g.rolname = 'pg_signal_backend' AND u.rolname = '$role'") == 1 ]] \
      || admin_psql postgres "GRANT pg_signal_backend TO $role" >/dev/null
    [[ $(admin_psql postgres "SELECT 1 FROM pg_database WHERE datname = '$database'") == 1 ]] \
      || admin_psql postgres "CREATE DATABASE $database OWNER $role" >/dev/null
    admin_psql "$database" "CREATE EXTENSION IF NOT EXISTS postgis" >/dev/null
    # Tests and scratch catalogs clone this template (CREATE DATABASE … TEMPLATE), which carries PostGIS,
    # so the role needs no superuser rights.
    if [[ $(admin_psql postgres "SELECT 1 FROM pg_database WHERE datname = '${database}_template'") != 1 ]]; then
      admin_psql postgres "CREATE DATABASE ${database}_template OWNER $role" >/dev/null
      admin_psql "${database}_template" "CREATE EXTENSION IF NOT EXISTS postgis" >/dev/null
      admin_psql postgres "ALTER DATABASE ${database}_template IS_TEMPLATE true" >/dev/null
    fi
    echo "postgis: $(admin_psql "$database" "SELECT 'PostgreSQL ' || current_setting('server_version') || ', PostGIS ' || postgis_lib_version()") on 127.0.0.1:$port" >&2
    url ;;
  *)
    echo "usage: scripts/postgis.sh up|down|url" >&2; exit 64 ;;
esac
