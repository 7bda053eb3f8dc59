#!/usr/bin/env bash
# Exact allocation of the harness JVM per request, by class: runs LoadHarness under Epsilon GC (nothing is
# ever collected, so a class histogram with -all holds every object allocated), takes two histograms in the
# measurement window and divides the difference by the requests sent in between, counted as the new
# instances of COUNT_CLASS (default our stack's ClientPendingRequest, one per request; raw and ours clients).
# Prints bytes and objects per request for each class, largest first; [I includes the filler arrays of
# retired TLABs (not allocations). Sites: record the same run with JFR (jdk.ObjectAllocationSample).
#
#   opcua-benchmarks/perf/alloc-histo.sh [--jar JAR] [-n ROWS] -- HARNESS_OPTIONS...
#   opcua-benchmarks/perf/alloc-histo.sh -- --server ours --client ours --scenario read --values 1 --sessions 20 --inflight 4 \
#       --duration 10 --warmup 5
#
# JVM options go in $JAVA_OPTS (e.g. -Dio.netty.leakDetection.level=disabled); the heap is $HEAP (6g): it
# must hold everything the run allocates.
set -euo pipefail

jar=opcua-benchmarks/target/benchmarks.jar
rows=40
count_class=${COUNT_CLASS:-dev.opcua.stack.client.transport.uasc.ClientPendingRequest}
while [[ $# -gt 0 ]]; do
  case "$1" in
    --jar) jar=$2; shift 2 ;;
    -n) rows=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) break ;;
  esac
done

dir=$(mktemp -d /tmp/alloc-histo.XXXXXX)
# word splitting of JAVA_OPTS is intended
# shellcheck disable=SC2086
java ${JAVA_OPTS:-} -XX:+UnlockExperimentalVMOptions -XX:+UseEpsilonGC -Xms${HEAP:-6g} -Xmx${HEAP:-6g} \
  -cp "$jar" dev.opcua.benchmarks.load.LoadHarness "$@" > "$dir/stdout" 2> "$dir/stderr" &
pid=$!
wait_for() { # progress line of the window, e.g. '  2 s:'
  while ! grep -q "^$1" "$dir/stderr"; do
    kill -0 "$pid" 2> /dev/null || { echo "alloc-histo.sh: the harness ended early (see $dir/stderr)" >&2; exit 1; }
    sleep 0.05
  done
}
wait_for '  2 s:'
jcmd "$pid" GC.class_histogram -all > "$dir/h1"
wait_for '  7 s:'
jcmd "$pid" GC.class_histogram -all > "$dir/h2"
wait "$pid" || true
grep '^RESULT ' "$dir/stdout" || { echo "alloc-histo.sh: no RESULT line (see $dir/stderr)" >&2; exit 1; }
awk -v count="$count_class" -v rows="$rows" '
  FNR == 1 { file++ }
  $1 ~ /^[0-9]+:$/ { n[file, $4] = $2; b[file, $4] = $3; classes[$4] = 1 }
  END {
    ops = n[2, count] - n[1, count]
    if (ops <= 0) { print "alloc-histo.sh: no new " count " between the histograms" > "/dev/stderr"; exit 1 }
    total = 0
    for (c in classes) { d = b[2, c] - b[1, c]; if (d > 0) { bytes[c] = d; total += d } }
    printf "requests %d (new %s); all threads %.0f B/request\n", ops, count, total / ops
    printf "%9s %8s  %s\n", "B/request", "obj/req", "class"
    k = 0
    while (k < rows) {
      best = ""; for (c in bytes) if (best == "" || bytes[c] > bytes[best]) best = c
      if (best == "") break
      printf "%9.1f %8.2f  %s\n", bytes[best] / ops, (n[2, best] - n[1, best]) / ops, best
      delete bytes[best]; k++
    }
  }' "$dir/h1" "$dir/h2"
echo "histograms and logs: $dir"
