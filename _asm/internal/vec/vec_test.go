package vec

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestTailsRun assembles testdata/tailgen's kernels into a scratch module
// and runs a test there that compares them with copy() over every length
// and both ends of a buffer; the masked kernel runs only where
// /proc/cpuinfo lists AVX512BW and BMI2.
func TestTailsRun(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the tail kernels are amd64 assembly")
	}
	if testing.Short() {
		t.Skip("builds and runs a scratch module")
	}
	dir := t.TempDir()
	gen := exec.Command("go", "run", "./testdata/tailgen",
		"-out", filepath.Join(dir, "tail_amd64.s"), "-stubs", filepath.Join(dir, "tail_amd64.go"), "-pkg", "tailcheck")
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("tailgen: %v\n%s", err, out)
	}
	files := map[string]string{
		"go.mod":       "module tailcheck\n\ngo 1.26\n",
		"tail_test.go": scratchTest,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := exec.Command("go", "test", "-count=1", "-v", ".")
	run.Dir = dir
	run.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("scratch test: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

const scratchTest = `package tailcheck

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func check(t *testing.T, name string, f func(dst, src *byte, n int), limit int) {
	src := make([]byte, 256)
	for i := range src {
		src[i] = byte(i*7 + 1)
	}
	for n := 0; n < 64; n++ {
		for _, off := range []int{0, 1, 64, 256 - 64, 256 - max(n, 1)} {
			dst := make([]byte, 256)
			f(&dst[off], &src[off], n)
			want := make([]byte, 256)
			copy(want[off:off+min(n, limit)], src[off:])
			if !bytes.Equal(dst, want) {
				t.Fatalf("%s n=%d off=%d: got %x", name, n, off, dst)
			}
		}
	}
}

func TestCopyTail(t *testing.T) { check(t, "copyTail", copyTail, 64) }

func TestCopyMasked(t *testing.T) {
	info, _ := os.ReadFile("/proc/cpuinfo")
	if !strings.Contains(string(info), " avx512bw") || !strings.Contains(string(info), " bmi2") {
		t.Skip("no AVX512BW and BMI2 listed in /proc/cpuinfo")
	}
	check(t, "copyMasked", copyMasked, 64)
}
`
