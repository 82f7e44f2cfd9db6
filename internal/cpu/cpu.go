// Package cpu detects the x86-64 features simdcrypt's kernels use and applies
// the user's feature masks.
//
// Detection uses CPUID and XGETBV directly rather than golang.org/x/sys/cpu,
// which reports VAES and GFNI only as part of its AVX-512 group and so cannot
// see them on AVX2-only parts such as Zen 3 or Alder Lake.
//
// Masks work like OpenSSL's OPENSSL_ia32cap: the environment variable
// SIMDCRYPT_CPU, read once at start-up, holds comma-separated "name=off"
// entries ("all=off" leaves only portable Go). Ciphers choose their
// implementation when a key is set up, so a mask changed through SetMask
// applies to ciphers created after the change.
package cpu

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
)

// Feature is one CPU capability a kernel may need.
type Feature uint

const (
	AESNI Feature = iota
	PCLMULQDQ
	SSSE3
	AVX
	AVX2
	// AVX512 stands for the group the kernels need together: F, VL, BW and
	// DQ, with the operating system saving the opmask and ZMM state.
	AVX512
	VAES
	VPCLMULQDQ
	GFNI
	BMI2
	ADX
	AVX512IFMA
	numFeatures
)

var featureNames = [numFeatures]string{
	AESNI:      "aesni",
	PCLMULQDQ:  "pclmulqdq",
	SSSE3:      "ssse3",
	AVX:        "avx",
	AVX2:       "avx2",
	AVX512:     "avx512",
	VAES:       "vaes",
	VPCLMULQDQ: "vpclmulqdq",
	GFNI:       "gfni",
	BMI2:       "bmi2",
	ADX:        "adx",
	AVX512IFMA: "avx512ifma",
}

// requires lists what each feature cannot be used without: VEX and EVEX
// encodings need the AVX register state, 512-bit code builds on AVX2.
// Masking a feature therefore also masks everything that requires it.
var requires = [numFeatures][]Feature{
	AVX2:       {AVX},
	AVX512:     {AVX2},
	VAES:       {AVX, AESNI},
	VPCLMULQDQ: {AVX, PCLMULQDQ},
	GFNI:       {AVX},
	BMI2:       {AVX},
	AVX512IFMA: {AVX512},
}

func (f Feature) String() string {
	if f < numFeatures {
		return featureNames[f]
	}
	return fmt.Sprintf("Feature(%d)", uint(f))
}

// All returns every feature in display order.
func All() []Feature {
	fs := make([]Feature, numFeatures)
	for i := range fs {
		fs[i] = Feature(i)
	}
	return fs
}

// ParseFeature returns the feature with the given mask name.
func ParseFeature(name string) (Feature, bool) {
	for i, n := range featureNames {
		if n == name {
			return Feature(i), true
		}
	}
	return 0, false
}

// Info describes the processor.
type Info struct {
	Vendor   string // "GenuineIntel", "AuthenticAMD", ... or "" off x86
	Family   int    // display family (base + extended)
	Model    int    // display model (base + extended)
	Stepping int
	Uarch    string // microarchitecture name when known, else ""
}

var (
	info     Info
	detected [numFeatures]bool

	maskBits atomic.Uint64 // bit f set: feature f masked off
	envMu    sync.Mutex
	envSpec  string
	unknown  []string
)

// EnvVar is the environment variable read at start-up for feature masks.
const EnvVar = "SIMDCRYPT_CPU"

func init() {
	detect()
	info.Uarch = uarchName(info.Vendor, info.Family, info.Model)
	wideDownclock.Store(wideVectorsDownclock(info.Vendor, info.Uarch))
	envSpec = os.Getenv(EnvVar)
	bits, unk := parseMask(envSpec)
	maskBits.Store(bits)
	unknown = unk
}

// parseMask turns "a=off,b=off" into a bit set, collecting names it does not
// know. Entries other than name=off ("name=on", a bare name) are unknown too:
// a mask can only take features away.
func parseMask(spec string) (bits uint64, unknownNames []string) {
	for _, entry := range strings.Split(spec, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		name, val, ok := strings.Cut(entry, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if !ok || strings.ToLower(strings.TrimSpace(val)) != "off" {
			unknownNames = append(unknownNames, entry)
			continue
		}
		if name == "all" {
			bits = 1<<numFeatures - 1
			continue
		}
		f, found := ParseFeature(name)
		if !found {
			unknownNames = append(unknownNames, entry)
			continue
		}
		bits |= 1 << f
	}
	return bits, unknownNames
}

// CPU returns the processor description.
func CPU() Info { return info }

// Detected reports whether the processor and operating system support f,
// ignoring masks.
func Detected(f Feature) bool { return f < numFeatures && detected[f] }

// Masked reports whether f is masked off, directly or through a feature it
// requires.
func Masked(f Feature) bool { return !has(f, maskBits.Load(), true) }

// Has reports whether f is detected and not masked: whether kernels may use it.
func Has(f Feature) bool { return has(f, maskBits.Load(), false) }

// HasAll reports whether every feature in fs is usable.
func HasAll(fs ...Feature) bool {
	m := maskBits.Load()
	for _, f := range fs {
		if !has(f, m, false) {
			return false
		}
	}
	return true
}

func has(f Feature, mask uint64, ignoreDetection bool) bool {
	if f >= numFeatures || mask&(1<<f) != 0 {
		return false
	}
	if !ignoreDetection && !detected[f] {
		return false
	}
	for _, r := range requires[f] {
		if !has(r, mask, ignoreDetection) {
			return false
		}
	}
	return true
}

// MaskSpec returns the mask in force, in SIMDCRYPT_CPU syntax.
func MaskSpec() string {
	m := maskBits.Load()
	var parts []string
	for f := Feature(0); f < numFeatures; f++ {
		if m&(1<<f) != 0 {
			parts = append(parts, f.String()+"=off")
		}
	}
	return strings.Join(parts, ",")
}

// EnvSpec returns SIMDCRYPT_CPU as read at start-up.
func EnvSpec() string { return envSpec }

// UnknownEnvEntries returns the entries of SIMDCRYPT_CPU that were ignored.
func UnknownEnvEntries() []string { return append([]string(nil), unknown...) }

// SetMask replaces the feature mask with spec (SIMDCRYPT_CPU syntax; "" masks
// nothing) and returns a function that restores the previous mask. It is
// meant for tests and benchmarks; ciphers created afterwards see the change.
func SetMask(spec string) (restore func(), err error) {
	bits, unk := parseMask(spec)
	if len(unk) > 0 {
		return nil, fmt.Errorf("cpu: unknown mask entries %q (want name=off with name one of %s, or all)",
			unk, strings.Join(featureNames[:], ", "))
	}
	envMu.Lock()
	defer envMu.Unlock()
	old := maskBits.Swap(bits)
	return func() { maskBits.Store(old) }, nil
}

// PretendUarch makes CPU and WideVectorsDownclock report another
// microarchitecture (vendor and name as CPU().Vendor and Uarch spell them)
// and returns a function that restores the real one. It is meant for tests
// of per-microarchitecture dispatch; it is not safe for concurrent use with
// cipher construction.
func PretendUarch(vendor, uarch string) (restore func()) {
	envMu.Lock()
	defer envMu.Unlock()
	old := info
	info.Vendor, info.Uarch = vendor, uarch
	wideDownclock.Store(wideVectorsDownclock(vendor, uarch))
	return func() {
		envMu.Lock()
		defer envMu.Unlock()
		info = old
		wideDownclock.Store(wideVectorsDownclock(old.Vendor, old.Uarch))
	}
}
