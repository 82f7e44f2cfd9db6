package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestSpeedStreamsToPipe: through a real pipe, in every format, the first
// row arrives while the run is still going, not all at the end.
func TestSpeedStreamsToPipe(t *testing.T) {
	bin := simdcryptBinary(t)
	for _, format := range []string{"table", "jsonl", "csv", "gobench"} {
		cmd := exec.Command(bin, "speed", "-cipher", "aes-128-ctr,aes-128-cbc", "-impl", "stdlib,generic",
			"-duration", "80ms", "-reps", "2", "-cpu-mhz", "3000", "-format", format)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(stdout)
		var first time.Duration
		for first == 0 {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("%s: no row before EOF: %v", format, err)
			}
			if isRow(format, line) {
				first = time.Since(start)
			}
		}
		io.Copy(io.Discard, br)
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		total := time.Since(start)
		// Six measurements of 80 ms: the first row comes after about one
		// of them, well before the end.
		if first > total*3/4 {
			t.Errorf("%s: first row after %v of %v: rows are not written as they finish", format, first, total)
		}
	}
}

func isRow(format, line string) bool {
	switch format {
	case "table":
		return strings.Contains(line, "GB/s") || strings.Contains(line, "MB/s")
	case "jsonl":
		var m map[string]any
		return json.Unmarshal([]byte(line), &m) == nil
	case "csv":
		return strings.HasPrefix(line, "aes-")
	}
	return strings.HasPrefix(line, "Benchmark")
}

// TestSpeedBudgetUnderLoad runs the default selection with a small budget
// while a CPU hog spins on every core: the run must end within its budget
// plus 20%, measuring less and saying so, and its table must fit in 100
// columns.
func TestSpeedBudgetUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole default selection for several seconds")
	}
	hog := exec.Command(os.Args[0], "-test.run=^TestHelperCPUHog$")
	hog.Env = append(os.Environ(), "SIMDCRYPT_TEST_HOG=1")
	if err := hog.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { hog.Process.Kill(); hog.Wait() }()
	time.Sleep(200 * time.Millisecond) // let it reach every core

	const budget = 6 * time.Second
	var out, errOut bytes.Buffer
	start := time.Now()
	code := speed([]string{"-time", budget.String()}, &out, &errOut)
	took := time.Since(start)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if took > budget*12/10 {
		t.Errorf("a %v budget took %v under a CPU hog (more than 20%% over)", budget, took)
	}
	widest, line := 0, ""
	for _, l := range strings.Split(out.String(), "\n") {
		if n := utf8.RuneCountInString(l); n > widest {
			widest, line = n, l
		}
	}
	if widest > 100 {
		t.Errorf("widest line has %d columns (at most 100):\n%s", widest, line)
	}
	if !strings.Contains(out.String(), "figure median") {
		t.Errorf("the table does not name its estimator:\n%s", out.String())
	}
	t.Logf("default run, %v budget, hog on %d CPUs: took %v; widest line %d columns", budget, runtime.NumCPU(), took.Round(time.Millisecond), widest)
}

// TestHelperCPUHog is the CPU hog of TestSpeedBudgetUnderLoad, run as a
// child process: a spinning goroutine per CPU until killed.
func TestHelperCPUHog(t *testing.T) {
	if os.Getenv("SIMDCRYPT_TEST_HOG") == "" {
		t.Skip("only as TestSpeedBudgetUnderLoad's child process")
	}
	for range runtime.NumCPU() {
		go func() {
			for x := 0; ; x++ {
				_ = x
			}
		}()
	}
	select {}
}
