# Sourced by scripts/postgis.sh and scripts/seaweedfs.sh (not run on its own).
#
# port_holder PORT: what listens on 127.0.0.1:PORT ("pid N: its command line", "a process of another
# user", or "a process this script cannot name"), or nothing when the port is free.
port_holder() {
  local line pid
  line=$(ss -Hltnp "sport = :$1" 2>/dev/null | head -1 || true)
  if [[ -z $line ]]; then
    # No ss (or it sees nothing): try to connect.
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && echo "a process this script cannot name"
    return 0
  fi
  pid=$(grep -o 'pid=[0-9]*' <<<"$line" | head -1 | cut -d= -f2 || true)
  if [[ -n $pid ]]; then
    echo "pid $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || echo unknown)"
  else
    echo "a process of another user"
  fi
}
