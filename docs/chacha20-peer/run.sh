#!/bin/sh
# Same-run comparison for docs/chacha20-limits.md: simdcrypt's ChaCha20
# paths (this tree, and a base commit's for old-versus-new), libgcrypt's
# avx2 and ssse3 code, and golang.org/x/crypto, interleaved: each round
# measures the clock, then runs every binary, in reverse order every other
# round. Prints the raw rows (round, implementation, size, ns/B, c/B at the
# round's clock), then per implementation and size the median over rounds.
#
#   docs/chacha20-peer/run.sh [ROUNDS [BASE-COMMIT]]    (default 9, main)
set -eu
rounds=${1:-9}
base=${2:-main}
sizes="64 256 1024 16384"
top=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cc -O2 -o "$tmp/gcrypt" "$top/docs/chacha20-peer/gcrypt.c" -lgcrypt
(cd "$top" && go build -o "$tmp/new" docs/chacha20-peer/main.go)
mkdir "$tmp/base"
git -C "$top" archive "$base" | tar -x -C "$tmp/base"
mkdir -p "$tmp/base/docs/chacha20-peer"
cp "$top/docs/chacha20-peer/main.go" "$tmp/base/docs/chacha20-peer/"
(cd "$tmp/base" && go build -o "$tmp/old" docs/chacha20-peer/main.go)

run() {
	case $1 in
	new) "$tmp/new" avx512,avx2,ssse3,xcrypto $sizes ;;
	old) "$tmp/old" avx512,avx2,ssse3 $sizes | sed 's/^/old-/' ;;
	gcrypt-avx2) "$tmp/gcrypt" avx2 $sizes ;;
	gcrypt-ssse3) "$tmp/gcrypt" ssse3 $sizes ;;
	esac
}

r=1
while [ "$r" -le "$rounds" ]; do
	order="new gcrypt-avx2 old gcrypt-ssse3"
	[ $((r % 2)) -eq 0 ] && order="gcrypt-ssse3 old gcrypt-avx2 new"
	mhz=$("$tmp/gcrypt" mhz)
	for b in $order; do
		run "$b" | awk -v r="$r" -v m="$mhz" '{ printf "%d %s %d %.5f %.4f\n", r, $1, $2, $3, $3 * m / 1000 }'
	done
	r=$((r + 1))
done >"$tmp/raw"

echo "# round impl size ns/B c/B"
cat "$tmp/raw"
# median of column $1 of the raw rows, per implementation and size
median() {
	sort -k2,2 -k3,3n -k"$1","$1"g "$tmp/raw" | awk -v c="$1" '
		function flush() { if (n) printf "%s %d %s\n", key, sz, v[int((n + 1) / 2)] }
		$2 " " $3 != cur { flush(); cur = $2 " " $3; key = $2; sz = $3; n = 0 }
		{ v[++n] = $c }
		END { flush() }'
}
echo "# impl size median-ns/B median-c/B (over $rounds rounds, each median on its own)"
median 4 >"$tmp/ns"
median 5 >"$tmp/cb"
paste -d' ' "$tmp/ns" "$tmp/cb" | awk '{ print $1, $2, $3, $6 }'
