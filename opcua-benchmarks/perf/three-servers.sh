#!/usr/bin/env bash
# The three-server table of docs/PERFORMANCE.md in one sitting: every row of ours / open62541 1.4.19 / Milo 1.1.2,
# each row paired rounds (A B C A B C ...) through opcua-benchmarks/perf/ab.sh, the same load client (ours unless
# CLIENT says otherwise) for all three.
#
#   opcua-benchmarks/perf/three-servers.sh [-r ROUNDS (3)] [-o DIR (/tmp/three-servers)] [ROW...]
#
# ROWs (default all): read1 read4 read100 write100 browse sub encrypt connect. Environment: JAR (the bench jar),
# O6 (the open62541 bench_server; build it with opcua-benchmarks/peers/open62541/build.sh), SERVER_JVM (JVM options of
# our and Milo's server, e.g. "-Xmx128m -Dio.netty.leakDetection.level=disabled"), SMALL_HEAP (JVM options, e.g.
# -Xmx128m: our server once more with them as a fourth side, so that the table shows what they change in the same sitting),
# CLIENT (ours|milo), MILO (0: no Milo side, for a shorter sitting of ours against open62541), WINDOW ("--duration 10 --warmup 8"; the connect row takes LONG_WARMUP (30) s of warmup and the sub
# row SUB_WARMUP (180) s: their paths run a few hundred times a second and reach the JIT's last tier only after one to
# two minutes).
# Sides in the summaries: A ours, B open62541, C Milo, D ours with SMALL_HEAP. Each row's ab.sh summary goes to
# DIR/ROW.txt, its RESULT lines to DIR/ROW.results.
set -euo pipefail
cd "$(dirname "$0")/../.."

rounds=3
dir=/tmp/three-servers
while [[ $# -gt 0 ]]; do
  case "$1" in
    -r) rounds=$2; shift 2 ;;
    -o) dir=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
rows=("$@")
if [[ ${#rows[@]} -eq 0 ]]; then rows=(read1 read4 read100 write100 browse sub encrypt connect); fi

jar=${JAR:-opcua-benchmarks/target/benchmarks.jar}
o6=${O6:-${O6_BUILD:-opcua-benchmarks/target/open62541}/bench_server}
client=${CLIENT:-ours}
window=${WINDOW:---duration 10 --warmup 8}
jvm=java
if [[ -n ${SERVER_JVM:-} ]]; then
  [[ $SERVER_JVM != *"'"* ]] || { echo "three-servers.sh: SERVER_JVM takes no quotes" >&2; exit 2; }
  jvm="java '-Dload.server.jvmOptions=$SERVER_JVM'"
fi
[[ -f $jar ]] || { echo "three-servers.sh: no $jar; build it: mvn -B -q package -DskipTests -pl opcua-benchmarks -am" >&2; exit 2; }
[[ -x $o6 ]] || { echo "three-servers.sh: no open62541 bench_server at $o6 (see README, open62541 peer)" >&2; exit 2; }
mkdir -p "$dir"

harness="$jvm -cp $jar dev.opcua.benchmarks.load.LoadHarness --client $client"
small=()
if [[ -n ${SMALL_HEAP:-} ]]; then
  [[ $SMALL_HEAP != *"'"* ]] || { echo "three-servers.sh: SMALL_HEAP takes no quotes" >&2; exit 2; }
  small=(-d "java '-Dload.server.jvmOptions=$SMALL_HEAP' -cp $jar dev.opcua.benchmarks.load.LoadHarness --client $client --server ours")
fi
for row in "${rows[@]}"; do
  warmup= # rows whose path runs a few hundred times a second warm up longer
  case "$row" in
    read1) opts="--scenario read --values 1 --sessions 20 --inflight 1" ;;
    read4) opts="--scenario read --values 1 --sessions 20 --inflight 4" ;;
    read100) opts="--scenario read --values 100 --sessions 20 --inflight 4" ;;
    write100) opts="--scenario write --values 100 --sessions 20 --inflight 4" ;;
    browse) opts="--scenario browse --browse bench --sessions 20 --inflight 4" ;;
    sub) opts="--scenario sub --sessions 20 --items 100 --publishing-ms 100"; warmup=${SUB_WARMUP:-180} ;;
    encrypt) opts="--scenario read --values 1 --sessions 20 --inflight 4 --security encrypt --policy Basic256Sha256" ;;
    connect) opts="--scenario connect --sessions 4"; warmup=${LONG_WARMUP:-30} ;;
    *) echo "three-servers.sh: unknown row $row" >&2; exit 2 ;;
  esac
  w=$window
  if [[ -n $warmup ]]; then w="$(sed -E 's/--warmup [0-9]+//' <<< "$window") --warmup $warmup"; fi
  echo "== $row: $opts $w (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  # shellcheck disable=SC2086
  milo=(-c "$harness --server milo")
  if [[ ${MILO:-1} == 0 ]]; then milo=(); fi
  AB_OUT="$dir/$row.results" opcua-benchmarks/perf/ab.sh -r "$rounds" \
    -a "$harness --server ours" -b "$harness --server open62541 --open62541 $o6" "${milo[@]}" \
    "${small[@]}" -- $opts $w > "$dir/$row.txt"
  cat "$dir/$row.txt"
done
