package testkit

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// RequireEnv names the environment variable that turns a path this CPU
// cannot run into a test failure: "all", or a comma-separated list of
// paths ("vaes512", "aria/gfni-avx512"), for runs on machines that should
// run them.
const RequireEnv = "SIMDCRYPT_REQUIRE_PATHS"

// Main runs a package's tests from its TestMain, then prints to standard
// output, -v or not, one line per cipher naming the paths tested and those
// this CPU cannot run (with the features they miss), so that no log hides
// an untested path. It fails the run if RequireEnv asks for a path that
// cannot run.
//
// `go test ./...` (package list mode) shows a passing package's output
// only with -v; `go test` in a package directory, -v, and every failure
// show the line.
func Main(m *testing.M, cipherNames ...string) { os.Exit(Summarize(m.Run(), cipherNames...)) }

// Summarize prints Main's lines after a run that exited with code and
// returns the code to exit with, for a TestMain with more to do.
func Summarize(code int, cipherNames ...string) int {
	for _, name := range cipherNames {
		line, err := PathsSummary(name, os.Getenv(RequireEnv))
		fmt.Println(line)
		if err != nil {
			fmt.Println("FAIL:", err)
			code = max(code, 1)
		}
	}
	return code
}

// SummarizeDefault is Summarize for a package whose tests run each
// cipher's default path only (the tool, ecb): it names those paths and
// leaves the others to the cipher packages' own tests.
func SummarizeDefault(code int, cipherNames ...string) int {
	var ran []string
	for _, name := range cipherNames {
		if c, ok := catalog.Get(name); ok {
			p, _ := c.Chosen()
			ran = append(ran, name+" "+p.Name)
		}
	}
	fmt.Printf("paths tested: the default ones only (%s); the cipher packages' tests run every path\n", strings.Join(ran, ", "))
	return code
}

// PathsSummary returns the one-line summary of the named cipher's paths
// and, when require (RequireEnv's syntax) names a path that cannot run
// here or that does not exist, an error saying which.
func PathsSummary(cipherName, require string) (string, error) {
	var tested, missing, unrunnable []string
	paths := catalog.For(cipherName)
	for _, p := range paths {
		if p.Available() {
			tested = append(tested, p.Name)
			continue
		}
		var need []string
		for _, f := range p.Missing() {
			need = append(need, f.String())
		}
		missing = append(missing, p.Name+" (needs "+strings.Join(need, "+")+")")
		if requires(require, cipherName, p.Name) {
			unrunnable = append(unrunnable, p.Name)
		}
	}
	line := fmt.Sprintf("%s paths tested: %s; not runnable on this CPU under this mask: ", cipherName, strings.Join(tested, ", "))
	if len(missing) == 0 {
		line += "none"
	} else {
		line += strings.Join(missing, ", ") + " (" + RequireEnv + "=all makes this a failure)"
	}
	if len(paths) == 0 {
		return line, fmt.Errorf("no paths of %s in the catalogue", cipherName)
	}
	for _, r := range strings.Split(require, ",") {
		c, name, qualified := strings.Cut(strings.TrimSpace(r), "/")
		if qualified && c == cipherName && !slices.ContainsFunc(paths, func(p *catalog.Path) bool { return p.Name == name }) {
			return line, fmt.Errorf("%s names %s/%s, which does not exist", RequireEnv, c, name)
		}
	}
	if len(unrunnable) > 0 {
		return line, fmt.Errorf("%s requires %s of %s, which this CPU cannot run", RequireEnv, strings.Join(unrunnable, ", "), cipherName)
	}
	return line, nil
}

// requires reports whether the RequireEnv value asks for cipherName's path.
func requires(require, cipherName, path string) bool {
	for _, r := range strings.Split(require, ",") {
		switch strings.TrimSpace(r) {
		case "all", path, cipherName + "/" + path:
			return true
		}
	}
	return false
}

// CheckPrefer256 checks the per-microarchitecture choice of a cipher with
// a 512-bit path wide and a 256-bit path narrow: wide where 512-bit vectors
// run at full clock, narrow where the CPU prefers 256-bit vectors, and
// wide again when prefer256 is masked there.
func CheckPrefer256(t *testing.T, cipherName, wide, narrow string) {
	t.Helper()
	p, ok := catalog.Lookup(cipherName, wide)
	if !ok || !p.Wide {
		t.Fatalf("%s/%s is not a path with 512-bit vectors", cipherName, wide)
	}
	if !p.Available() {
		t.Skipf("%s/%s needs %v", cipherName, wide, p.Missing())
	}
	c, _ := catalog.Get(cipherName)
	for _, u := range []struct {
		vendor, uarch, mask, want string
	}{
		{"GenuineIntel", "Sapphire Rapids", "", wide},
		{"AuthenticAMD", "Zen 5", "", wide},
		{"GenuineIntel", "Ice Lake-SP", "", narrow},
		{"GenuineIntel", "Skylake-SP", "", narrow},
		{"GenuineIntel", "Skylake-SP", "prefer256=off", wide},
	} {
		restore := cpu.PretendUarch(u.vendor, u.uarch)
		unmask := Mask(t, u.mask)
		got, why := c.Chosen()
		unmask()
		restore()
		if got.Name != u.want {
			t.Errorf("%s %s: dispatch chose %s (%s), want %s", u.uarch, u.mask, got.Name, why, u.want)
		}
	}
}

// CheckDefaultPath checks got, the path a cipher's dispatch chose by
// default (for the reason why), against what this build should choose:
// with -tags purego (purego) the portable "generic"; on amd64 where asm
// says the CPU has what the cipher's kernels need, one of simdcrypt's
// assembly paths; where stdlib says the standard library (or x/crypto)
// runs its own assembly for this GOARCH and CPU, "stdlib"; else "generic".
func CheckDefaultPath(t *testing.T, got *catalog.Path, why string, purego, asm, stdlib bool) {
	t.Helper()
	want := "generic"
	switch {
	case purego:
	case runtime.GOARCH == "amd64" && asm:
		if got.Name == "generic" || got.Name == "stdlib" {
			t.Fatalf("amd64: dispatch chose %s (%s), want an assembly path", got.Name, why)
		}
		t.Logf("amd64: %s (%s)", got.Name, why)
		return
	case stdlib:
		want = "stdlib"
	}
	if got.Name != want {
		t.Fatalf("%s (purego %v): dispatch chose %s (%s), want %s", runtime.GOARCH, purego, got.Name, why, want)
	}
	t.Logf("%s (purego %v): %s", runtime.GOARCH, purego, got.Name)
}

// Mask masks CPU features as SIMDCRYPT_CPU=mask would (cpu.SetMask),
// failing the test on a malformed mask; the function it returns restores
// them.
func Mask(t testing.TB, mask string) (restore func()) {
	t.Helper()
	restore, err := cpu.SetMask(mask)
	if err != nil {
		t.Fatal(err)
	}
	return restore
}

// Paths returns the catalogue's paths of the named cipher for a test to
// run. It also reads the two variables that decide what runs (the CPU mask
// and RequireEnv) from inside the test, where the go command's test cache
// sees the read: the mask itself is read at package init, before the cache
// starts listening, so without this `SIMDCRYPT_CPU=avx512=off go test`
// after a plain `go test` would replay the unmasked result.
func Paths(cipherName string) []*catalog.Path {
	os.Getenv(cpu.EnvVar)
	os.Getenv(RequireEnv)
	return catalog.For(cipherName)
}
