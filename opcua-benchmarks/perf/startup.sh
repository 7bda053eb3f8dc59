#!/usr/bin/env bash
# Start-up time and idle footprint of a server: starts it N times, each time measuring the wall time from the
# process's launch until its OPC UA port answers GetEndpoints and the CPU the server used until then (user +
# system: hardly affected by other processes, so runs on a busy machine compare), then its resident memory
# (VmRSS of /proc/PID/status) after S seconds idle, and stops it (SIGTERM); prints each run and the median,
# min..max.
#
#   opcua-benchmarks/perf/startup.sh [-n N] [-w W] [--jar JAR] [--java JAVA] [--jvm 'OPTIONS'] [--env 'VARS']
#                                    [--dir DIR] [--fresh] [--idle S] [--label TEXT] [-- APP_ARGS...]
#   opcua-benchmarks/perf/startup.sh [-n N] ... --cmd 'COMMAND'
#
# -n N          measured runs (default 5)
# -w W          runs before them that are not counted (default 1: it creates the PKI and the history store)
# --jar JAR     the executable jar (default the sample server's exec jar), started with JAVA -jar
# --java JAVA   the java launcher (default: java on the PATH, e.g. /usr/lib/jvm/temurin-25-jdk-amd64/bin/java)
# --jvm OPTS    JVM options, shell words, e.g. --jvm '-Xmx128m -XX:SharedArchiveFile=/tmp/sample.jsa'
# --env VARS    environment variables of the server only, shell words NAME=VALUE, e.g. --env 'MALLOC_ARENA_MAX=2'
# --cmd CMD     any command instead of JAVA OPTS -jar JAR; shell words in which $OPCUA_PORT and $HTTP_PORT
#               (single-quote them) are the free ports this run chose
# --dir DIR     the server's working directory, where pki/ and data/ are (default a new temporary directory;
#               runs share it, so only the first creates the application certificates)
# --fresh       delete DIR/pki and DIR/data before every run: each one is the first start of a fresh clone
# --idle S      seconds idle after ready before the memory is read (default 5)
# --label TEXT  a name for the summary line
# --probe-jar J the jar of the probe (default opcua-benchmarks/target/benchmarks.jar)
# APP_ARGS      more application arguments, after --opcua.server.port=P --server.port=Q (the jar form)
#
# Each run's server output is kept in $STARTUP_OUT (default a temporary directory, named at the end) as run-K.log,
# with the line of Spring Boot "Started ... in X seconds (process running for Y)" quoted per run. Build first:
#   mvn -B -o -q package -DskipTests -Djacoco.skip=true -pl sample-server-app,opcua-benchmarks -am
# The load average is printed with the summary: start-up times are CPU-bound, compare runs of one sitting.
set -euo pipefail

runs=5
warmups=1
jar=sample-server-app/target/sample-server-app-0.1.0-SNAPSHOT-exec.jar
probe_jar=opcua-benchmarks/target/benchmarks.jar
java=${JAVA:-java}
jvm_options=
env_vars=
cmd=
dir=
fresh=false
idle=5
label=
while [[ $# -gt 0 ]]; do
  case "$1" in
    -n) runs=$2; shift 2 ;;
    -w) warmups=$2; shift 2 ;;
    --jar) jar=$2; shift 2 ;;
    --probe-jar) probe_jar=$2; shift 2 ;;
    --java) java=$2; shift 2 ;;
    --jvm) jvm_options=$2; shift 2 ;;
    --env) env_vars=$2; shift 2 ;;
    --cmd) cmd=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --fresh) fresh=true; shift ;;
    --idle) idle=$2; shift 2 ;;
    --label) label=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
    *) echo "startup.sh: unknown option $1 (--help lists them)" >&2; exit 2 ;;
  esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "startup.sh: -n takes a number of runs above 0, got $runs" >&2; exit 2; }
[[ $warmups =~ ^[0-9]+$ ]] || { echo "startup.sh: -w takes a number of runs, 0 or more, got $warmups" >&2; exit 2; }
[[ -n $cmd || -f $jar ]] || { echo "startup.sh: no jar at $jar (build it first, see --help)" >&2; exit 2; }
[[ -f $probe_jar ]] || { echo "startup.sh: no probe at $probe_jar (build opcua-benchmarks first)" >&2; exit 2; }
jar=$(realpath "${jar}")
probe_jar=$(realpath "$probe_jar")
if [[ -z $dir ]]; then
  dir=$(mktemp -d /tmp/startup-dir.XXXXXX)
fi
mkdir -p "$dir"
dir=$(realpath "$dir")
out=${STARTUP_OUT:-$(mktemp -d /tmp/startup-out.XXXXXX)}
mkdir -p "$out"

free_port() { # a TCP port nothing listens on, from the ephemeral range's neighbours
  local port
  while true; do
    port=$((20000 + RANDOM % 30000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
}

ready=()
cpu=()
rss=()
total=$((warmups + runs))
for ((k = 1; k <= total; k++)); do
  if $fresh; then
    rm -rf "$dir/pki" "$dir/data"
  fi
  OPCUA_PORT=$(free_port)
  HTTP_PORT=$(free_port)
  while [[ $HTTP_PORT == "$OPCUA_PORT" ]]; do HTTP_PORT=$(free_port); done
  export OPCUA_PORT HTTP_PORT
  if [[ -n $cmd ]]; then
    eval "server=($cmd)"
  else
    eval "options=($jvm_options)"
    server=("$java" "${options[@]}" -jar "$jar" "--opcua.server.port=$OPCUA_PORT" "--server.port=$HTTP_PORT" "$@")
  fi
  if [[ -n $env_vars ]]; then
    eval "variables=($env_vars)"
    server=(env "${variables[@]}" "${server[@]}") # env replaces itself with the server: same process, same PID
  fi
  log="$out/run-$k.log"
  line=$(java -cp "$probe_jar" dev.opcua.benchmarks.startup.StartupProbe \
      --endpoint "opc.tcp://localhost:$OPCUA_PORT/" --dir "$dir" --log "$log" --idle-s "$idle" -- "${server[@]}" \
      | grep '^STARTUP ') || { echo "startup.sh: run $k failed, its output: $log" >&2; exit 1; }
  ready_ms=$(sed -E 's/.* ready_ms=([0-9]+).*/\1/' <<< "$line")
  cpu_ms=$(sed -E 's/.* ready_cpu_ms=([0-9]+).*/\1/' <<< "$line")
  rss_mb=$(( $(sed -E 's/.* rss_kb=([0-9]+).*/\1/' <<< "$line") / 1024 ))
  started=$(grep -o 'Started .* in [0-9.]* seconds (process running for [0-9.]*)' "$log" | sed -E 's/Started [^ ]+ //' || true)
  if ((k <= warmups)); then
    printf 'warm-up %d: ready %5d ms, CPU %5d ms, RSS %4d MB  %s\n' "$k" "$ready_ms" "$cpu_ms" "$rss_mb" "$started"
  else
    printf 'run %d:     ready %5d ms, CPU %5d ms, RSS %4d MB  %s\n' "$((k - warmups))" "$ready_ms" "$cpu_ms" "$rss_mb" \
      "$started"
    ready+=("$ready_ms")
    cpu+=("$cpu_ms")
    rss+=("$rss_mb")
  fi
done

summary() { # values... -> "median (min..max)"
  local sorted
  sorted=($(printf '%s\n' "$@" | sort -n))
  local n=${#sorted[@]}
  local median
  if ((n % 2 == 1)); then
    median=${sorted[$((n / 2))]}
  else
    median=$(( (sorted[n / 2 - 1] + sorted[n / 2]) / 2 ))
  fi
  echo "$median (${sorted[0]}..${sorted[$((n - 1))]})"
}
echo "${label:+$label: }ready ms $(summary "${ready[@]}"), CPU to ready ms $(summary "${cpu[@]}")," \
  "RSS idle MB $(summary "${rss[@]}"), median (min..max)" \
  "of $runs; load average $(cut -d' ' -f1-3 /proc/loadavg); logs in $out"
