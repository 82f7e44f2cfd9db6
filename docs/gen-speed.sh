#!/bin/sh
# Regenerates the measured figures in docs/ on the machine it runs on:
#   docs/speed-report.txt  `simdcrypt speed -report` (cycles/byte, every path)
#   docs/speed-table.txt   `simdcrypt speed` (the default table)
#   docs/speed.svg         throughput against buffer size, 128-bit keys
# Run from the repository root on a quiet machine; it takes about 3 minutes.
set -eu
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/simdcrypt
go build -o "$bin" ./cmd/simdcrypt
"$bin" speed -report >docs/speed-report.txt
"$bin" speed >docs/speed-table.txt
"$bin" speed -cipher 'aes-128-*,aria-128-*,chacha20' -plot docs/speed.svg >/dev/null
echo "wrote docs/speed-report.txt docs/speed-table.txt docs/speed.svg"
