# The fairbench watchdog (see Watchdog.java): outlives the orchestrator and removes what it left:
# its servers' cgroups, their processes (also those outside, by the FAIRBENCH_SERVER variable they
# inherited) and its containers.
# Arguments: OWNER_PID OWNER_START WATCH_FILE REPORT_FILE. OWNER_START is field 22 of
# /proc/OWNER_PID/stat, so a reused pid does not pass for the orchestrator. WATCH_FILE lists, one
# a line, "pid PID START" (servers without a cgroup), "docker HOST" and "container ID". What is
# removed is appended to REPORT_FILE, which the next fairbench command prints.
owner=$1
start=$2
watch=$3
report=$4
# Only the orchestrator's end stops the watchdog: not Ctrl-C's SIGINT, a closed terminal, a pipe.
trap '' INT HUP PIPE QUIT TSTP
cd / || exit 1

# started PID: sets $started to the start time of PID, empty when it is gone or a zombie.
started() {
  started=
  { read -r line < "/proc/$1/stat"; } 2>/dev/null || return 0
  rest=${line##*) }
  set -f
  # shellcheck disable=SC2086
  set -- $rest
  set +f
  case $1 in Z | X) return 0 ;; esac
  shift 19
  started=$1
}

say() {
  echo "$*" >> "$report"
}

groups() {
  for g in /sys/fs/cgroup/fairbench/"$owner"-* /sys/fs/cgroup/*/fairbench/"$owner"-*; do
    [ -d "$g" ] && echo "$g"
  done
}

# A frozen task cannot be killed under cgroup v1 until it is thawed.
thaw() {
  for g in $(groups); do
    if [ -f "$g/freezer.state" ]; then
      { read -r state < "$g/freezer.state"; } 2>/dev/null
      if [ "$state" != THAWED ] && { echo THAWED > "$g/freezer.state"; } 2>/dev/null && [ "$1" = say ]; then
        say "thawed cgroup $g"
      fi
    fi
    if [ -f "$g/cgroup.freeze" ]; then
      { read -r state < "$g/cgroup.freeze"; } 2>/dev/null
      if [ "$state" != 0 ] && { echo 0 > "$g/cgroup.freeze"; } 2>/dev/null && [ "$1" = say ]; then
        say "thawed cgroup $g"
      fi
    fi
  done
}

# tree PID: sets $tree to PID and its descendants (a server started without a cgroup).
tree() {
  tree=" $1 "
  grew=1
  while [ $grew = 1 ]; do
    grew=0
    for s in /proc/[0-9]*/stat; do
      { read -r line < "$s"; } 2>/dev/null || continue
      pid=${line%% *}
      rest=${line##*) }
      set -f
      # shellcheck disable=SC2086
      set -- $rest
      set +f
      case "$tree" in
        *" $2 "*) case "$tree" in *" $pid "*) ;; *) tree="$tree$pid " grew=1 ;; esac ;;
      esac
    done
  done
}

while :; do
  started "$owner"
  [ "$started" = "$start" ] || break
  sleep 0.5
done

thaw say
seen=" "
round=0
while [ $round -lt 50 ]; do
  pids=
  for g in $(groups); do
    pids="$pids $(cat "$g/cgroup.procs" 2> /dev/null)"
  done
  if [ -f "$watch" ]; then
    while read -r kind a b; do
      if [ "$kind" = pid ]; then
        started "$a"
        if [ -n "$started" ] && [ "$started" = "$b" ]; then
          tree "$a"
          pids="$pids $tree"
        fi
      fi
    done < "$watch"
  fi
  # A server's process that left its cgroups and its process tree still carries the marker it
  # inherited (NativeServer.MARKER).
  pids="$pids $(grep -lzs "^FAIRBENCH_SERVER=$owner-$start/" /proc/[0-9]*/environ | sed 's|^/proc/||; s|/environ$||')"
  # shellcheck disable=SC2086
  set -- $pids
  [ $# -gt 0 ] || break
  for p in "$@"; do
    case "$seen" in
      *" $p "*) ;;
      *)
        seen="$seen$p "
        cmd=$(tr '\0' ' ' < "/proc/$p/cmdline" 2> /dev/null)
        say "killed pid $p (${cmd% })"
        ;;
    esac
  done
  kill -CONT "$@" 2> /dev/null
  kill -KILL "$@" 2> /dev/null
  thaw
  sleep 0.1
  round=$((round + 1))
done
for g in $(groups); do
  if rmdir "$g" 2> /dev/null; then
    say "removed cgroup $g"
  else
    say "could not remove cgroup $g (still busy); fairbench cleanup tries again"
  fi
done

# Every engine the orchestrator used (the servers' and the load client's may differ): the listed
# containers that engine knows, and those with the owner label there.
if [ -f "$watch" ] && grep -q '^docker ' "$watch"; then
  listed=$(sed -n 's/^container //p' "$watch")
  done_ids=" "
  for host in $(sed -n 's/^docker //p' "$watch"); do
    if command -v docker > /dev/null 2>&1; then
      ids="$listed $(DOCKER_HOST="$host" docker ps -aq --no-trunc --filter "label=dev.fairbench.owner=$owner-$start" 2> /dev/null)"
      for id in $ids; do
        case "$done_ids" in *" $id "*) continue ;; esac
        what=$(DOCKER_HOST="$host" docker inspect -f '{{.Name}} ({{.Config.Image}}, {{.State.Status}})' "$id" 2> /dev/null) || continue
        done_ids="$done_ids$id "
        DOCKER_HOST="$host" docker unpause "$id" > /dev/null 2>&1
        if DOCKER_HOST="$host" docker rm -f -v "$id" > /dev/null 2>&1; then
          say "removed container ${what#/}"
        else
          say "could not remove container ${what#/}; fairbench cleanup tries again"
        fi
      done
    elif command -v curl > /dev/null 2>&1; then
      socket=${host#unix://}
      [ "$socket" = "$host" ] && socket=/var/run/docker.sock
      for id in $listed; do
        case "$done_ids" in *" $id "*) continue ;; esac
        curl -s -o /dev/null --unix-socket "$socket" -X POST "http://localhost/containers/$id/unpause"
        code=$(curl -s -o /dev/null -w '%{http_code}' --unix-socket "$socket" -X DELETE "http://localhost/containers/$id?force=true&v=true")
        if [ "$code" = 204 ]; then
          done_ids="$done_ids$id "
          say "removed container $id"
        fi
      done
    fi
  done
fi
rm -f "$watch"
exit 0
