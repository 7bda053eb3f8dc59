#!/usr/bin/env bash
# Builds open62541 1.5.x with OpenSSL (static library + amalgamated open62541.h) and the interop
# peers interop_server and interop_client on it, and with O6_PEERS=all or pubsub also the PubSub
# over MQTT peers pubsub_mqtt_publisher and pubsub_mqtt_subscriber.
#
#   opcua-benchmarks/peers/open62541-1.5/build.sh SRC_DIR      (or O6_SRC=SRC_DIR .../build.sh)
#
#   SRC_DIR / $O6_SRC   the open62541 source tree: tag v1.5.7 exported from
#                       github.com/open62541/open62541 (required). Of its git submodules only
#                       deps/mqtt-c is used, and only for the pubsub peers (see README.md)
#   $O6_PEERS           interop (default): interop_server, interop_client;
#                       pubsub: pubsub_mqtt_publisher, pubsub_mqtt_subscriber; all: both.
#                       With pubsub or all the library is built with MQTT (UA_ENABLE_MQTT)
#   $O6_BUILD           build folder (default opcua-benchmarks/target/open62541-1.5 of this
#                       repository); gets cmake/bin/libopen62541.a, cmake/open62541.h and
#                       bin/<the programs>
#   $JOBS               parallel make jobs (default: number of cores)
#   $CC                 C compiler (default cc)
#
# Needs cmake, python3, a C compiler and OpenSSL 3 headers
# (Debian: apt-get install cmake python3 gcc make libssl-dev).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
O6_SRC="${1:-${O6_SRC:-}}"
O6_BUILD="${O6_BUILD:-$(cd "$HERE/../.." && pwd)/target/open62541-1.5}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
CC="${CC:-cc}"

die() { echo "build.sh: $*" >&2; exit 1; }

O6_PEERS="${O6_PEERS:-interop}"
case "$O6_PEERS" in
    interop) PROGRAMS=(interop_server interop_client); MQTT=OFF ;;
    pubsub) PROGRAMS=(pubsub_mqtt_publisher pubsub_mqtt_subscriber); MQTT=ON ;;
    all) PROGRAMS=(interop_server interop_client pubsub_mqtt_publisher pubsub_mqtt_subscriber); MQTT=ON ;;
    *) die "O6_PEERS is interop, pubsub or all, not '$O6_PEERS'" ;;
esac

[ -n "$O6_SRC" ] || die "give the open62541 source tree: build.sh SRC_DIR or O6_SRC=SRC_DIR (tag v1.5.7, see README.md)"

[ -f "$O6_SRC/CMakeLists.txt" ] && [ -d "$O6_SRC/tools/schema" ] ||
    die "no open62541 source tree in '$O6_SRC' (export tag v1.5.7 there, see README.md)"
# MQTT-C is a git submodule: an exported tag (git archive, GitHub tarball) leaves deps/mqtt-c empty.
if [ "$MQTT" = ON ] && [ ! -f "$O6_SRC/deps/mqtt-c/include/mqtt.h" ]; then
    die "the pubsub peers need MQTT-C in $O6_SRC/deps/mqtt-c (include/mqtt.h missing): it is the git
    submodule deps/mqtt-c of open62541 (LiamBindle/MQTT-C, commit 0f4c34c8cc00b16cfee094745d68b8cdbaecd8e0
    for v1.5.7). In a clone: git -C $O6_SRC submodule update --init deps/mqtt-c
    otherwise: git clone https://github.com/LiamBindle/MQTT-C $O6_SRC/deps/mqtt-c &&
    git -C $O6_SRC/deps/mqtt-c checkout 0f4c34c8cc00b16cfee094745d68b8cdbaecd8e0 (see README.md)"
fi
for tool in cmake python3 make "$CC"; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found (apt-get install cmake python3 make gcc)"
done
printf '#include <openssl/opensslv.h>\n#if OPENSSL_VERSION_MAJOR < 3\n#error old\n#endif\n' |
    "$CC" -E -x c - >/dev/null 2>&1 || die "OpenSSL 3 headers not found (apt-get install libssl-dev)"

# The version comes from the source's CMakeLists.txt, not from git: the exported tree has
# no .git, and a tree placed inside another repository would otherwise pick up its tags.
ver_part() { sed -n "s/^set(OPEN62541_VER_$1 \([0-9][0-9]*\))/\1/p" "$O6_SRC/CMakeLists.txt" | head -n1; }
O6_VERSION="v$(ver_part MAJOR).$(ver_part MINOR).$(ver_part PATCH)"
case "$O6_VERSION" in
    v1.5.[0-9]*) ;;
    *) die "expected open62541 1.5.x in $O6_SRC, found '$O6_VERSION'" ;;
esac
echo "build.sh: open62541 $O6_VERSION from $O6_SRC -> $O6_BUILD (peers: $O6_PEERS, MQTT $MQTT)" >&2

# Options. UA_NAMESPACE_ZERO=REDUCED uses tools/schema (FULL would need deps/ua-nodeset);
# multicast discovery off (it would need deps/mdnsd). With UA_ENABLE_ENCRYPTION=OPENSSL the
# library holds every policy of the OpenSSL backend, the ECC ones included.
CMAKE_OPTS=(
    -DCMAKE_BUILD_TYPE=Release
    -DOPEN62541_VERSION="$O6_VERSION"
    -DUA_ENABLE_AMALGAMATION=ON
    -DUA_ENABLE_ENCRYPTION=OPENSSL
    -DUA_ENABLE_SUBSCRIPTIONS=ON
    -DUA_ENABLE_METHODCALLS=ON
    -DUA_MULTITHREADING=0
    -DUA_LOGLEVEL=300
    -DUA_ENABLE_DISCOVERY_MULTICAST=OFF
    -DUA_NAMESPACE_ZERO=REDUCED
    -DUA_BUILD_EXAMPLES=OFF
    -DUA_BUILD_UNIT_TESTS=OFF
    # PubSub and JSON are on by default in 1.5 (PUBSUB_INFORMATIONMODEL follows PUBSUB); stated
    # here so the pubsub peers do not depend on defaults. MQTT is the EventLoop's MQTT
    # ConnectionManager (1.5 has no UA_ENABLE_PUBSUB_MQTT any more); UA_FILE_MQTT names the MQTT-C
    # header, otherwise CMake runs "git submodule update", which fails in an exported tree.
    -DUA_ENABLE_PUBSUB=ON
    -DUA_ENABLE_PUBSUB_INFORMATIONMODEL=ON
    -DUA_ENABLE_JSON_ENCODING=ON
    -DUA_ENABLE_MQTT="$MQTT"
)
if [ "$MQTT" = ON ]; then CMAKE_OPTS+=(-DUA_FILE_MQTT="$O6_SRC/deps/mqtt-c/include/mqtt.h"); fi

LIB_BUILD="$O6_BUILD/cmake"
mkdir -p "$LIB_BUILD" "$O6_BUILD/bin"
cmake -S "$O6_SRC" -B "$LIB_BUILD" -DCMAKE_C_COMPILER="$CC" "${CMAKE_OPTS[@]}" >"$O6_BUILD/cmake.log" 2>&1 ||
    { tail -n 30 "$O6_BUILD/cmake.log" >&2; die "cmake failed (log: $O6_BUILD/cmake.log)"; }
make -C "$LIB_BUILD" -j"$JOBS" open62541 open62541-amalgamation >"$O6_BUILD/make.log" 2>&1 ||
    { tail -n 30 "$O6_BUILD/make.log" >&2; die "make failed (log: $O6_BUILD/make.log)"; }
[ -f "$LIB_BUILD/open62541.h" ] && [ -f "$LIB_BUILD/bin/libopen62541.a" ] ||
    die "the build did not produce open62541.h and bin/libopen62541.a"
grep -q '^#define UA_ENABLE_ENCRYPTION_OPENSSL' "$LIB_BUILD/open62541.h" ||
    die "open62541.h was configured without OpenSSL encryption (stale $LIB_BUILD/CMakeCache.txt?)"
if [ "$MQTT" = ON ]; then
    grep -q '^#define UA_ENABLE_MQTT' "$LIB_BUILD/open62541.h" && grep -q '^#define UA_ENABLE_PUBSUB$' "$LIB_BUILD/open62541.h" &&
        grep -q '^#define UA_ENABLE_JSON_ENCODING$' "$LIB_BUILD/open62541.h" ||
        die "open62541.h was configured without PubSub, JSON or MQTT (stale $LIB_BUILD/CMakeCache.txt?)"
fi

# A Release build of open62541 uses -flto with -fno-fat-lto-objects, so the static library
# holds LTO bytecode only: link with -flto as well (the library is really compiled at this
# step, with its own warnings silenced by -w; the peers are compiled with warnings on).
# interop_common.c uses libcrypto directly only to tell which kind of key a certificate holds;
# the pubsub programs share pubsub_common.c.
common_of() { case "$1" in interop_*) echo interop_common ;; pubsub_*) echo pubsub_common ;; esac; }
sources=()
for program in "${PROGRAMS[@]}"; do
    sources+=("$program")
    common="$(common_of "$program")"
    case " ${sources[*]} " in *" $common "*) ;; *) sources+=("$common") ;; esac
done
for source in "${sources[@]}"; do
    "$CC" -std=gnu11 -O2 -DNDEBUG -flto=auto -Wall -Wextra -Wno-unused-parameter \
        -I"$LIB_BUILD" -c "$HERE/$source.c" -o "$LIB_BUILD/$source.o"
done
for program in "${PROGRAMS[@]}"; do
    "$CC" -O2 -flto=auto -w "$LIB_BUILD/$program.o" "$LIB_BUILD/$(common_of "$program").o" \
        "$LIB_BUILD/bin/libopen62541.a" -Wl,--gc-sections -lssl -lcrypto -lpthread -lm \
        -o "$O6_BUILD/bin/$program"
done

(cd "$O6_BUILD/bin" && ls -l "${PROGRAMS[@]}")
echo "build ok: ${PROGRAMS[*]} in $O6_BUILD/bin (open62541 $O6_VERSION, OpenSSL, MQTT $MQTT)"
