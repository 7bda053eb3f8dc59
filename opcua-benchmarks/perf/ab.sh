#!/usr/bin/env bash
# Paired A/B load runs: alternates two sides for R rounds (A B A B ...) with the same LoadHarness
# options, so that drift of the machine hits both sides alike, then prints per side the median and
# min..max of the key RESULT fields.
#
#   opcua-benchmarks/perf/ab.sh [-r R] [--jar JAR] -- HARNESS_OPTIONS...        ours (A) versus milo (B)
#   opcua-benchmarks/perf/ab.sh [-r R] -a 'CMD A' -b 'CMD B' [-c 'CMD C' [-d 'CMD D' [-e 'CMD E']]] -- HARNESS_OPTIONS...
#
# CMD A / CMD B (/ CMD C / CMD D / CMD E, more sides taken in turn: A B C D E A B C D E ...) are command prefixes the harness
# options are appended to, e.g. two builds:
#   -a 'java -cp /tmp/old.jar dev.opcua.benchmarks.load.LoadHarness --server ours'
# (shell words: quote an option that holds spaces, e.g. "java '-Dload.server.jvmOptions=-Xmx128m -Dk=v' -cp ...")
# HARNESS_OPTIONS include the security of every channel, e.g. -- --security encrypt --policy Basic256Sha256
# (default --security none); to compare security modes, put them in the prefixes:
#   -a '... LoadHarness --server ours --security none' -b '... LoadHarness --server ours --security sign'
# and to compare clients against one server (--client ours|milo|raw; the harness's default is ours):
#   -a '... LoadHarness --server ours --client ours' -b '... LoadHarness --server ours --client milo'
# RESULT lines go to $AB_OUT (default: a temporary file, printed at the end); the summary names each side's
# security and client as its RESULT lines report them. server_path_cpu_us_per_op (sub and events scenarios) is the server's
# CPU without its JIT compiler threads and the bench server's own load threads; n/a where not reported.
# client_cpu_us_per_op is the harness JVM's CPU, client_alloc_b_per_op what the client's threads allocated.
set -euo pipefail

rounds=5
jar=opcua-benchmarks/target/benchmarks.jar
cmd_a=
cmd_b=
cmd_c=
cmd_d=
cmd_e=
while [[ $# -gt 0 ]]; do
  case "$1" in
    -r) rounds=$2; shift 2 ;;
    --jar) jar=$2; shift 2 ;;
    -a) cmd_a=$2; shift 2 ;;
    -b) cmd_b=$2; shift 2 ;;
    -c) cmd_c=$2; shift 2 ;;
    -d) cmd_d=$2; shift 2 ;;
    -e) cmd_e=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
if [[ -z $cmd_a && -z $cmd_b ]]; then
  cmd_a="java -cp $jar dev.opcua.benchmarks.load.LoadHarness --server ours"
  cmd_b="java -cp $jar dev.opcua.benchmarks.load.LoadHarness --server milo"
elif [[ -z $cmd_a || -z $cmd_b ]]; then
  echo "ab.sh: give both -a and -b, or neither" >&2
  exit 2
fi

results=${AB_OUT:-$(mktemp /tmp/ab-results.XXXXXX)}
: > "$results"

run_side() { # side cmd options...
  local side=$1 cmd=$2
  shift 2
  local line
  # the prefix is shell words: quotes group an option with spaces, e.g. '-Dload.server.jvmOptions=-Xmx128m -Dx=y'
  line=$(eval "$cmd \"\$@\"" 2>>"$results.log" | grep '^RESULT ' | tail -n 1) || true
  if [[ -z $line ]]; then
    echo "ab.sh: side $side produced no RESULT line (see $results.log)" >&2
  else
    echo "$side $line" >> "$results"
    echo "$side $line" >&2
  fi
}

for ((i = 1; i <= rounds; i++)); do
  echo "round $i/$rounds" >&2
  run_side A "$cmd_a" "$@"
  run_side B "$cmd_b" "$@"
  if [[ -n $cmd_c ]]; then run_side C "$cmd_c" "$@"; fi
  if [[ -n $cmd_d ]]; then run_side D "$cmd_d" "$@"; fi
  if [[ -n $cmd_e ]]; then run_side E "$cmd_e" "$@"; fi
done

echo "A: $cmd_a"
echo "B: $cmd_b"
if [[ -n $cmd_c ]]; then echo "C: $cmd_c"; fi
if [[ -n $cmd_d ]]; then echo "D: $cmd_d"; fi
if [[ -n $cmd_e ]]; then echo "E: $cmd_e"; fi
echo "options: $*; rounds: $rounds; results: $results"
awk '
  function median(side, key,   n, i, j, t, a) {
    n = count[side]
    for (i = 1; i <= n; i++) a[i] = val[side, key, i]
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && (a[j] + 0) > (t + 0); j--) a[j + 1] = a[j]; a[j + 1] = t }
    lo = a[1]; hi = a[n]
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  BEGIN { nkeys = split("ops_per_s p50_us p99_us server_cpu_us_per_op server_path_cpu_us_per_op server_alloc_b_per_op client_cpu_us_per_op client_alloc_b_per_op server_rss_mb server_heap_after_gc_mb", keys, " ") }
  {
    side = $1; n = ++count[side]
    for (f = 3; f <= NF; f++) { split($f, kv, "="); fields[kv[1]] = kv[2] }
    # older harness builds print no security: they ran SecurityPolicy None
    sec = ("security" in fields) ? fields["security"] : "None"
    if (!(side in security)) security[side] = sec
    else if (index(" " security[side] " ", " " sec " ") == 0) security[side] = security[side] " " sec
    # older harness builds print no client: they sent raw requests
    cl = ("client" in fields) ? fields["client"] : "raw"
    if (!(side in client)) client[side] = cl
    else if (index(" " client[side] " ", " " cl " ") == 0) client[side] = client[side] " " cl
    for (k = 1; k <= nkeys; k++) val[side, keys[k], n] = (keys[k] in fields) ? fields[keys[k]] : "n/a"
    delete fields
  }
  END {
    printf "%-4s %-26s %14s %22s\n", "side", "metric", "median", "min..max"
    for (s = 0; s < 5; s++) {
      side = substr("ABCDE", s + 1, 1)
      if (!(side in count)) { if (s < 2) printf "%-4s no results\n", side; continue }
      for (k = 1; k <= nkeys; k++) {
        key = keys[k]
        if (val[side, key, 1] == "n/a") { printf "%-4s %-26s %14s %22s\n", side, key, "n/a", ""; continue }
        m = median(side, key)
        printf "%-4s %-26s %14.1f %22s\n", side, key, m, sprintf("%.1f..%.1f", lo, hi)
      }
      printf "%-4s %-26s %14d\n", side, "rounds", count[side]
      printf "%-4s %-26s %s\n", side, "security", security[side]
      printf "%-4s %-26s %s\n", side, "client", client[side]
    }
  }' "$results"
