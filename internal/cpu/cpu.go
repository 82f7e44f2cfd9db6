// Package cpu detects the x86-64 features simdcrypt's kernels use, holds the
// per-microarchitecture preferences (uarch.go), and applies the user's
// feature masks. It is the foundation of every cipher package's dispatch:
// a cipher chooses its path from what Has reports, and chooses again when
// Generation changes.
//
// Detection uses CPUID and XGETBV directly rather than golang.org/x/sys/cpu,
// which reports VAES and GFNI only as part of its AVX-512 group and so cannot
// see them on AVX2-only parts such as Zen 3 or Alder Lake.
//
// Masks work like OpenSSL's OPENSSL_ia32cap: the environment variable
// SIMDCRYPT_CPU, read once at start-up, holds comma-separated "name=off"
// entries ("all=off" leaves only portable Go). A mistyped entry does not
// stop the program: at start-up the library ignores entries it does not
// know and keeps them in EnvError, which `simdcrypt cpu` prints as a
// warning; SetMask, the API, refuses them with the same error. Ciphers
// choose their implementation when a key is set up, so a mask changed
// through SetMask applies to ciphers created after the change.
package cpu

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
)

// Feature is one CPU capability a kernel may need, or one property of the
// processor that steers the choice between kernels (Prefer256).
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
	// AVX512IFMA is the 52-bit multiply-add (VPMADD52LUQ/HUQ) of the
	// vector Poly1305 kernels.
	AVX512IFMA
	// AVX512VBMI2 adds the funnel shifts (VPSHLDQ, VPSHLDVQ and their
	// right-shift twins) and byte compress/expand.
	AVX512VBMI2
	// Prefer256 is not an instruction set but a property: on this
	// microarchitecture 256-bit vectors beat 512-bit ones (see
	// Prefer256Reason). Every cipher passes over its 512-bit paths while it
	// is usable; masking it (prefer256=off) lets them run.
	Prefer256
	// Stdlib is a property too: the standard library's or x/crypto's
	// assembly may serve where simdcrypt has none (the "stdlib" paths off
	// amd64). It is always set; masking it (stdlib=off, or all=off) sends
	// those ciphers to portable Go.
	Stdlib
	numFeatures
)

var featureNames = [numFeatures]string{
	AESNI:       "aesni",
	PCLMULQDQ:   "pclmulqdq",
	SSSE3:       "ssse3",
	AVX:         "avx",
	AVX2:        "avx2",
	AVX512:      "avx512",
	VAES:        "vaes",
	VPCLMULQDQ:  "vpclmulqdq",
	GFNI:        "gfni",
	BMI2:        "bmi2",
	ADX:         "adx",
	AVX512IFMA:  "avx512ifma",
	AVX512VBMI2: "avx512vbmi2",
	Prefer256:   "prefer256",
	Stdlib:      "stdlib",
}

// requires lists what each feature cannot be used without: VEX and EVEX
// encodings need the AVX register state, 512-bit code builds on AVX2.
// Masking a feature therefore also masks everything that requires it.
// BMI2 and ADX are general-purpose-register instructions: they need no
// vector state.
var requires = [numFeatures][]Feature{
	AVX2:        {AVX},
	AVX512:      {AVX2},
	VAES:        {AVX, AESNI},
	VPCLMULQDQ:  {AVX, PCLMULQDQ},
	GFNI:        {AVX},
	AVX512IFMA:  {AVX512},
	AVX512VBMI2: {AVX512},
}

func (f Feature) String() string {
	if f < numFeatures {
		return featureNames[f]
	}
	return fmt.Sprintf("Feature(%d)", uint(f))
}

// IsProperty reports whether f is a property of the microarchitecture
// (Prefer256) rather than an instruction set CPUID reports.
func (f Feature) IsProperty() bool { return f == Prefer256 || f == Stdlib }

// All returns every feature in display order, the properties last.
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
	detected [numFeatures]atomic.Bool

	maskBits   atomic.Uint64 // bit f set: feature f masked off
	generation atomic.Uint64 // bumped by every change of Has's answers
	envMu      sync.Mutex
	envSpec    string
	envErr     error
)

// EnvVar is the environment variable read at start-up for feature masks.
const EnvVar = "SIMDCRYPT_CPU"

func init() {
	detect()
	info.Uarch = uarchName(info.Vendor, info.Family, info.Model)
	detected[Prefer256].Store(prefer256Reason(info.Vendor, info.Uarch) != "")
	detected[Stdlib].Store(true)
	envSpec = os.Getenv(EnvVar)
	bits, unk := parseMask(envSpec)
	maskBits.Store(bits)
	if len(unk) > 0 {
		envErr = &MaskError{Entries: unk}
	}
}

// MaskError names the entries of a mask that are not "name=off" for a
// known name (or "all=off").
type MaskError struct{ Entries []string }

func (e *MaskError) Error() string {
	return fmt.Sprintf("unknown %s entries %q (want name=off with name one of %s, or all=off)",
		EnvVar, e.Entries, strings.Join(featureNames[:], ", "))
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

// Detected reports whether the processor and operating system support f
// (for Prefer256: whether the microarchitecture table sets it), ignoring
// masks.
func Detected(f Feature) bool { return f < numFeatures && detected[f].Load() }

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

// Missing returns the features of fs that are absent or masked.
func Missing(fs ...Feature) []Feature {
	var m []Feature
	for _, f := range fs {
		if !Has(f) {
			m = append(m, f)
		}
	}
	return m
}

func has(f Feature, mask uint64, ignoreDetection bool) bool {
	if f >= numFeatures || mask&(1<<f) != 0 {
		return false
	}
	if !ignoreDetection && !detected[f].Load() {
		return false
	}
	for _, r := range requires[f] {
		if !has(r, mask, ignoreDetection) {
			return false
		}
	}
	return true
}

// Generation counts the changes to what Has reports (SetMask, its restore,
// PretendUarch). Dispatch caches its choice with the generation it was made
// in and chooses again only when the number moves: one atomic load per key
// setup.
func Generation() uint64 { return generation.Load() }

// MaskSpec returns the mask in force, in SIMDCRYPT_CPU syntax ("all=off"
// when everything is masked).
func MaskSpec() string {
	m := maskBits.Load()
	if m == 1<<numFeatures-1 {
		return "all=off"
	}
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

// EnvError returns a *MaskError naming the entries of SIMDCRYPT_CPU that
// were ignored at start-up, or nil.
func EnvError() error { return envErr }

// SetMask replaces the feature mask with spec (SIMDCRYPT_CPU syntax; "" masks
// nothing) and returns a function that restores the previous mask. An entry
// it does not know makes it return a *MaskError and change nothing. Ciphers
// created afterwards see the change.
func SetMask(spec string) (restore func(), err error) {
	bits, unk := parseMask(spec)
	if len(unk) > 0 {
		return nil, &MaskError{Entries: unk}
	}
	envMu.Lock()
	defer envMu.Unlock()
	old := maskBits.Swap(bits)
	generation.Add(1)
	return func() {
		envMu.Lock()
		defer envMu.Unlock()
		maskBits.Store(old)
		generation.Add(1)
	}, nil
}

// PretendUarch makes CPU, Prefer256Reason and Has(Prefer256) describe
// another microarchitecture (vendor and name as CPU().Vendor and Uarch
// spell them) and returns a function that restores the real one. It is
// meant for tests of per-microarchitecture dispatch; it is not safe for
// concurrent use with cipher construction.
func PretendUarch(vendor, uarch string) (restore func()) {
	set := func(vendor, uarch string) {
		info.Vendor, info.Uarch = vendor, uarch
		detected[Prefer256].Store(prefer256Reason(vendor, uarch) != "")
		generation.Add(1)
	}
	envMu.Lock()
	defer envMu.Unlock()
	old := info
	set(vendor, uarch)
	return func() {
		envMu.Lock()
		defer envMu.Unlock()
		set(old.Vendor, old.Uarch)
	}
}
