#!/usr/bin/env bash
# docs/PERFORMANCE.md's server table in one sitting: every row of our server with the defaults (plain `java`, A)
# and with the production options (PRODUCTION, D) against open62541 1.4.19 (B), once with our client as the load
# generator and once with Eclipse Milo 1.1.2's, then the system calls and wake-ups per operation of the rows that
# differ between the two load generators (STAT_ROWS), and the tables.
#
#   opcua-benchmarks/perf/sitting.sh [-r ROUNDS (2)] [-o DIR (/tmp/sitting)] [ROW...]
#
# Environment: JAR, O6 as for three-servers.sh; PRODUCTION (default "-Xmx128m", the README's production options);
# WINDOW (default "--duration 8 --warmup 6"), SUB_WARMUP (60), LONG_WARMUP (20); CLIENTS (default "ours milo");
# STAT_ROWS (default "read1 encrypt"; empty for none). Writes DIR/CLIENT/ROW.{txt,results}, DIR/stat-*.txt and
# DIR/tables.md; logs each step with the load average on stderr.
set -euo pipefail
cd "$(dirname "$0")/../.."

rounds=2
dir=/tmp/sitting
while [[ $# -gt 0 ]]; do
  case "$1" in
    -r) rounds=$2; shift 2 ;;
    -o) dir=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
rows=("$@")
jar=${JAR:-opcua-benchmarks/target/benchmarks.jar}
o6=${O6:-${O6_BUILD:-opcua-benchmarks/target/open62541}/bench_server}
export JAR=$jar O6=$o6 MILO=0 SMALL_HEAP=${PRODUCTION:--Xmx128m}
export WINDOW=${WINDOW:---duration 8 --warmup 6} SUB_WARMUP=${SUB_WARMUP:-60} LONG_WARMUP=${LONG_WARMUP:-20}
mkdir -p "$dir"
log() { echo "[$(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)] $*" >&2; }

for client in ${CLIENTS:-ours milo}; do
  log "server rows, client $client as the load, $rounds rounds"
  CLIENT=$client opcua-benchmarks/perf/three-servers.sh -r "$rounds" -o "$dir/$client" "${rows[@]}" > /dev/null
done

for row in ${STAT_ROWS-read1 encrypt}; do
  case "$row" in
    read1) opts="--scenario read --values 1 --sessions 20 --inflight 1" ;;
    encrypt) opts="--scenario read --values 1 --sessions 20 --inflight 4 --security encrypt --policy Basic256Sha256" ;;
    *) echo "sitting.sh: no STAT_ROWS row $row (read1, encrypt)" >&2; exit 2 ;;
  esac
  for server in ours open62541; do
    for client in ${CLIENTS:-ours milo}; do
      log "system calls per operation: $row, server $server, client $client"
      peer=()
      [[ $server == open62541 ]] && peer=(--open62541 "$o6")
      # shellcheck disable=SC2086 # opts is a list of options
      SERVER_JVM=$SMALL_HEAP opcua-benchmarks/perf/cpu-profile.sh --jar "$jar" --stat --target server -s 8 -- \
        --server "$server" "${peer[@]}" --client "$client" $opts --duration 12 --warmup 10 \
        > "$dir/stat-$row-$server-$client.txt" 2>&1 || log "failed: see $dir/stat-$row-$server-$client.txt"
    done
  done
done

{
  for client in ${CLIENTS:-ours milo}; do
    name=$client
    [[ $client == ours ]] && name=our || name="$client's"
    echo "### $name client as the load (A plain java, D ${SMALL_HEAP}, B open62541)"
    echo
    opcua-benchmarks/perf/server-table.sh "$dir/$client"
    echo
  done
  for f in "$dir"/stat-*.txt; do
    [[ -e $f ]] || continue
    echo "$(basename "$f" .txt): $(grep -E 'CPU us|epoll|recvfrom|sendto|writev|context' "$f" | awk '{printf "%s %s; ", $2, $1}')"
  done
} > "$dir/tables.md"
log "done: $dir/tables.md"
cat "$dir/tables.md"
