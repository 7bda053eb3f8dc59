#!/usr/bin/env bash
# Builds open62541 1.5.x with OpenSSL (static library + amalgamated open62541.h) and the interop
# peers interop_server and interop_client on it.
#
#   opcua-benchmarks/peers/open62541-1.5/build.sh SRC_DIR      (or O6_SRC=SRC_DIR .../build.sh)
#
#   SRC_DIR / $O6_SRC   the open62541 source tree: tag v1.5.7 exported from
#                       github.com/open62541/open62541 (required; the git submodules in
#                       deps/ are not needed)
#   $O6_BUILD           build folder (default opcua-benchmarks/target/open62541-1.5 of this
#                       repository); gets lib/libopen62541.a, open62541.h and
#                       bin/interop_server, bin/interop_client
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

[ -n "$O6_SRC" ] || die "give the open62541 source tree: build.sh SRC_DIR or O6_SRC=SRC_DIR (tag v1.5.7, see README.md)"

[ -f "$O6_SRC/CMakeLists.txt" ] && [ -d "$O6_SRC/tools/schema" ] ||
    die "no open62541 source tree in '$O6_SRC' (export tag v1.5.7 there, see README.md)"
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
echo "build.sh: open62541 $O6_VERSION from $O6_SRC -> $O6_BUILD" >&2

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
)

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

# A Release build of open62541 uses -flto with -fno-fat-lto-objects, so the static library
# holds LTO bytecode only: link with -flto as well (the library is really compiled at this
# step, with its own warnings silenced by -w; the peers are compiled with warnings on).
# interop_common.c uses libcrypto directly only to tell which kind of key a certificate holds.
for source in interop_common interop_server interop_client; do
    "$CC" -std=gnu11 -O2 -DNDEBUG -flto=auto -Wall -Wextra -Wno-unused-parameter \
        -I"$LIB_BUILD" -c "$HERE/$source.c" -o "$LIB_BUILD/$source.o"
done
for program in interop_server interop_client; do
    "$CC" -O2 -flto=auto -w "$LIB_BUILD/$program.o" "$LIB_BUILD/interop_common.o" \
        "$LIB_BUILD/bin/libopen62541.a" -Wl,--gc-sections -lssl -lcrypto -lpthread -lm \
        -o "$O6_BUILD/bin/$program"
done

ls -l "$O6_BUILD/bin/interop_server" "$O6_BUILD/bin/interop_client"
echo "build ok: $O6_BUILD/bin/interop_server and interop_client (open62541 $O6_VERSION, OpenSSL)"
