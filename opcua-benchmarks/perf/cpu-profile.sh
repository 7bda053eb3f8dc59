#!/usr/bin/env bash
# Where a process's CPU goes in a load window, kernel included: records the bench server (child of the
# harness) or the harness itself with Linux perf (software clock, call graphs from frame pointers, Java
# frames named through the JIT's perf map), then prints the CPU by thread and by symbol (self time) and the
# share spent in the kernel. Needs perf and root (or perf_event_paranoid <= 1); no hardware counters needed.
#
#   opcua-benchmarks/perf/cpu-profile.sh [--jar JAR] [--target server|client] [--stat] [-s SECONDS (8)] [-n ROWS (45)] -- HARNESS_OPTIONS...
#   opcua-benchmarks/perf/cpu-profile.sh -- --server ours --scenario read --values 1 --sessions 20 --duration 12 --warmup 8
#
# $SERVER_JVM adds JVM options of the child server (e.g. -Xmx128m -Dbench.ioThreads=1); $CLIENT_JVM those of the
# harness itself (e.g. -Dload.client.callbackThreads=true). $PERF_FREQ sets the sampling rate (default 1999 Hz;
# raise it for a process that uses little CPU, e.g. a client at 10,000 notifications/s).
# With --stat it counts instead of sampling: system calls by name, context switches and page faults of the
# process, per operation of the window (operations per second from the RESULT line).
# The window starts 2 s into the harness's measuring; keep --duration above SECONDS + 2.
set -euo pipefail

jar=opcua-benchmarks/target/benchmarks.jar
target=server
seconds=8
rows=45
stat=false
while [[ $# -gt 0 ]]; do
  case "$1" in
    --jar) jar=$2; shift 2 ;;
    --target) target=$2; shift 2 ;;
    -s) seconds=$2; shift 2 ;;
    --stat) stat=true; shift ;;
    -n) rows=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
command -v perf > /dev/null || { echo "cpu-profile.sh: no perf (Debian: linux-perf)" >&2; exit 2; }

dir=$(mktemp -d /tmp/cpu-profile.XXXXXX)
# shellcheck disable=SC2086 # CLIENT_JVM is a list of options
java -XX:+PreserveFramePointer ${CLIENT_JVM:-} "-Dload.server.jvmOptions=-XX:+PreserveFramePointer ${SERVER_JVM:-}" -cp "$jar" \
  dev.opcua.benchmarks.load.LoadHarness "$@" > "$dir/stdout" 2> "$dir/stderr" &
harness=$!
while ! grep -q '^  2 s:' "$dir/stderr"; do
  kill -0 "$harness" 2> /dev/null || { echo "cpu-profile.sh: the harness ended early (see $dir/stderr)" >&2; exit 1; }
  sleep 0.05
done
pid=$harness
if [[ $target == server ]]; then
  pid=$(pgrep -P "$harness" | head -n 1)
  [[ -n $pid ]] || { echo "cpu-profile.sh: no child server (profile --target client with --url)" >&2; exit 1; }
fi
if $stat; then
  events=context-switches,page-faults,task-clock
  for call in epoll_wait epoll_pwait epoll_pwait2 read write recvfrom sendto readv writev sendmsg recvmsg futex; do
    events+=",syscalls:sys_enter_$call"
  done
  perf stat -x, -e "$events" -p "$pid" -o "$dir/stat.csv" -- sleep "$seconds"
  wait "$harness" || true
  result=$(grep '^RESULT ' "$dir/stdout") || { echo "cpu-profile.sh: no RESULT line (see $dir/stderr)" >&2; exit 1; }
  echo "$result"
  ops=$(sed -n 's/.* ops_per_s=\([0-9.]*\).*/\1/p' <<< "$result")
  echo "per operation over $seconds s at $ops ops/s:"
  awk -F, -v ops="$ops" -v s="$seconds" '$1 ~ /^[0-9.]+$/ && $1 > 0 {
      name = $3; sub(/^syscalls:sys_enter_/, "", name)
      if (name == "task-clock") printf "%10.2f  CPU us\n", $1 * 1000 / (ops * s)
      else printf "%10.3f  %s\n", $1 / (ops * s), name
    }' "$dir/stat.csv"
  echo "counts: $dir/stat.csv"
  exit 0
fi
perf record -q -e cpu-clock -F "${PERF_FREQ:-1999}" -g -p "$pid" -o "$dir/perf.data" -- sleep "$seconds" 2> "$dir/perf.log"
# the JIT's symbols for perf (/tmp/perf-<pid>.map); the open62541 peer is native and has its own
jcmd "$pid" Compiler.perfmap > /dev/null 2>&1 || true
wait "$harness" || true
grep '^RESULT ' "$dir/stdout" || { echo "cpu-profile.sh: no RESULT line (see $dir/stderr)" >&2; exit 1; }
perf report -i "$dir/perf.data" --no-children --sort comm --stdio -g none 2> /dev/null | grep -v '^#' | grep -v '^$' \
  | head -n 20 > "$dir/threads.txt" || true
perf report -i "$dir/perf.data" --no-children --sort dso,sym --stdio -g none 2> /dev/null | grep -v '^#' \
  | grep -v '^$' > "$dir/symbols.txt" || true
echo "CPU by thread:"
cat "$dir/threads.txt"
echo "in the kernel: $(awk '/\[k\]/ { s += $1 } END { printf "%.1f %%", s }' "$dir/symbols.txt")"
echo "CPU by symbol (self):"
head -n "$rows" "$dir/symbols.txt" || true
echo "perf data, report and logs: $dir (perf report -i $dir/perf.data)"
