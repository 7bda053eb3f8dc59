#!/usr/bin/env bash
# The markdown table of docs/PERFORMANCE.md's server rows from a three-servers.sh directory: per row the server CPU
# per operation of each side (median, min..max over the rounds), ours over open62541 per side and round, the mean
# throughput and the range of the server's RSS under load.
#
#   opcua-benchmarks/perf/server-table.sh DIR [ROW...]
#
# DIR holds ROW.results (RESULT lines prefixed with their side, as ab.sh writes them). Sides: A ours, B open62541,
# C Milo, D ours with SMALL_HEAP; a side that did not run is left out. ROWs default to every ROW.results in DIR in
# the order of three-servers.sh.
set -euo pipefail
[[ $# -ge 1 && $1 != -h && $1 != --help ]] || { sed -n '2,10p' "$0"; exit 2; }
dir=$1
shift
rows=("$@")
if [[ ${#rows[@]} -eq 0 ]]; then
  for r in read1 read4 read100 write100 browse sub encrypt connect; do
    [[ -s $dir/$r.results ]] && rows+=("$r")
  done
fi
[[ ${#rows[@]} -gt 0 ]] || { echo "server-table.sh: no ROW.results in $dir" >&2; exit 2; }

for row in "${rows[@]}"; do
  awk -v row="$row" '
    function field(name,   i, kv) {
      for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == name) return kv[2] }
      return ""
    }
    function median(side,   n, i, j, t, v) {
      n = count[side]
      for (i = 1; i <= n; i++) v[i] = cpu[side, i]
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
      return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    function num(v) {
      return v >= 100 ? sprintf("%.0f", v) : v >= 10 ? sprintf("%.1f", v) : sprintf("%.2f", v)
    }
    function cell(side,   i, lo, hi) {
      if (!count[side]) return "-"
      lo = hi = cpu[side, 1]
      for (i = 2; i <= count[side]; i++) { if (cpu[side, i] < lo) lo = cpu[side, i]; if (cpu[side, i] > hi) hi = cpu[side, i] }
      return num(median(side)) " (" num(lo) ".." num(hi) ")"
    }
    function ratios(side,   i, out) {
      if (!count[side] || !count["B"]) return "-"
      out = sprintf("**%.2f**", median(side) / median("B"))
      for (i = 1; i <= count[side] && i <= count["B"]; i++) out = out (i == 1 ? " (" : ", ") sprintf("%.2f", cpu[side, i] / cpu["B", i])
      return out ")"
    }
    function range(a, side,   i, lo, hi) {
      if (!count[side]) return "-"
      lo = hi = a[side, 1]
      for (i = 2; i <= count[side]; i++) { if (a[side, i] < lo) lo = a[side, i]; if (a[side, i] > hi) hi = a[side, i] }
      return sprintf("%.0f", lo) == sprintf("%.0f", hi) ? sprintf("%.0f", lo) : sprintf("%.0f-%.0f", lo, hi)
    }
    function thousands(side,   i, s) {
      if (!count[side]) return "-"
      for (i = 1; i <= count[side]; i++) s += ops[side, i]
      return sprintf("%.1fk", s / count[side] / 1000)
    }
    $2 == "RESULT" {
      side = $1
      v = field("server_cpu_us_per_op"); if (v == "") v = field("server_cpu_us_per_notification")
      if (v == "" || v == "n/a") next
      n = ++count[side]
      cpu[side, n] = v
      ops[side, n] = field("ops_per_s")
      rss[side, n] = field("server_rss_mb")
    }
    END {
      printf "| %s | %s | %s | %s | %s | %s | %s | %s / %s / %s | %s / %s / %s |\n", row, cell("A"), cell("D"), cell("B"),
        cell("C"), ratios("A"), ratios("D"), thousands("A"), thousands("D"), thousands("B"),
        range(rss, "A"), range(rss, "D"), range(rss, "B")
    }' "$dir/$row.results"
done | { echo "| row | ours (A) | ours, SMALL_HEAP (D) | open62541 (B) | Milo (C) | A / B (rounds) | D / B (rounds) | ops/s A / D / B (mean) | RSS MB A / D / B |"
         echo "|---|---:|---:|---:|---:|---:|---:|---|---|"
         cat; }
