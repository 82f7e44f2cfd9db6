#!/bin/sh
# Regenerates the measured figures in docs/ on the machine it runs on:
#   docs/speed-table.txt   `simdcrypt speed` (the default table)
#   docs/speed-report.txt  `simdcrypt speed -report` of the same run (cycles/byte, every path)
#   docs/speed.svg         throughput against buffer size, 128-bit keys
# Run from the repository root on a quiet machine; it takes about 2 minutes.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/simdcrypt" ./cmd/simdcrypt
"$tmp/simdcrypt" speed -format json >"$tmp/speed.json"
"$tmp/simdcrypt" speed -load "$tmp/speed.json" >docs/speed-table.txt
"$tmp/simdcrypt" speed -load "$tmp/speed.json" -report >docs/speed-report.txt
"$tmp/simdcrypt" speed -cipher 'aes-128-*,aria-128-*,chacha20' -duration 120ms -plot docs/speed.svg >/dev/null
echo "wrote docs/speed-table.txt docs/speed-report.txt docs/speed.svg"
