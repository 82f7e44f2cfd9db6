package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/simdcrypt/simdcrypt/cmd/simdcrypt/internal/bench"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// speedBudget is the time the default run spreads over its measurements,
// so that `simdcrypt speed` with no flags ends within a minute.
const speedBudget = 35 * time.Second

func runSpeed(args []string) int { return speed(args, os.Stdout, os.Stderr) }

// isTerminal reports whether w is a terminal: progress is drawn only there,
// never into a file or pipe that collects the output.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// usageError is a mistake in the command line: one line, exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

type speedFlags struct {
	cipher, impl, size, offset, format, plot, compare, load string
	set                                                     map[string]bool // flags given on the command line
	duration                                                time.Duration
	count, reps, slices, threads                            int
	mhz                                                     float64
	cold, report, list                                      bool
}

func speedFlagSet(f *speedFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("speed", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.cipher, "cipher", "", "ciphers, comma-separated: names (aes-128-ctr), globs (aes-*-ctr), families (aria) or family-bits (aes-256)")
	fs.StringVar(&f.impl, "impl", "", "implementations, comma-separated names or globs; \"default\" = the dispatched path, \"baseline\" = Go's own")
	fs.StringVar(&f.size, "size", "", "fixed sizes in bytes (16,1k,16k) or \"matrix\" for 16,64,256,1K,8K,16K; empty = slope fit")
	fs.StringVar(&f.offset, "offset", "", "source/destination offsets from a 64-byte boundary (0,1,8) or \"all\" for 0,1,8,64,97")
	fs.DurationVar(&f.duration, "duration", 0, "time per measurement (0 = spread a 35 s budget over the run)")
	fs.IntVar(&f.count, "count", 1, "repeat the whole run N times (for benchstat and -compare)")
	fs.IntVar(&f.reps, "reps", bench.DefaultReps, "repetitions inside each measurement (median taken)")
	fs.IntVar(&f.slices, "slices", bench.DefaultSlices, "timed slices per batch, the fastest counts (1 = whole batches, averaging like go test -bench)")
	fs.IntVar(&f.threads, "threads", 1, "also measure on N goroutines at once (per-thread and total throughput)")
	fs.Float64Var(&f.mhz, "cpu-mhz", 0, "core clock for cycles/byte (0 = measure it)")
	fs.BoolVar(&f.cold, "cold", false, "cache-cold: rotate calls over a working set twice the last-level cache")
	fs.StringVar(&f.format, "format", "table", "output: table, csv, json or gobench")
	fs.BoolVar(&f.report, "report", false, "print OpenSSL's table: cycles/byte, one column per implementation")
	fs.StringVar(&f.plot, "plot", "", "also write a throughput-vs-size plot to FILE.svg or FILE.png")
	fs.StringVar(&f.compare, "compare", "", "A,B: compare two implementations, or two JSON files from -format json (Mann–Whitney U)")
	fs.BoolVar(&f.list, "list", false, "list what would be measured and exit")
	fs.StringVar(&f.load, "load", "", "render results saved with -format json (with -format, -report, -plot) instead of measuring")
	return fs
}

const speedExamples = `
examples:
  simdcrypt speed                                   every cipher, mode and path, slope fit, under a minute
  simdcrypt speed -report                           cycles/byte, one column per implementation
  simdcrypt speed -cipher 'aes-*-ctr' -size matrix -offset all
  simdcrypt speed -cold -cipher aes-128-ctr         from DRAM: software prefetch on and off
  simdcrypt speed -compare vaes512,vaes512-noprefetch -cipher aes-128-ctr -count 3
  simdcrypt speed -format gobench -count 6 > a.txt && benchstat a.txt
  simdcrypt speed -cipher 'aes-128-*' -plot speed.svg
`

func flagNames(fs *flag.FlagSet) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, "-"+f.Name) })
	return strings.Join(names, " ")
}

func speed(args []string, stdout, stderr io.Writer) int {
	interactive := isTerminal(stderr)
	var f speedFlags
	fs := speedFlagSet(&f)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stderr)
			fmt.Fprintln(stderr, "usage: simdcrypt speed [flags]")
			fs.PrintDefaults()
			fmt.Fprint(stderr, speedExamples)
			return 0
		}
		fmt.Fprintf(stderr, "simdcrypt speed: %v (valid flags: %s)\n", err, flagNames(fs))
		return 2
	}
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "simdcrypt speed: unexpected argument %q (flags only: %s)\n", fs.Arg(0), flagNames(fs))
		return 2
	}
	if err := runSpeedFlags(&f, stdout, stderr, interactive); err != nil {
		fmt.Fprintf(stderr, "simdcrypt speed: %v\n", err)
		var ue usageError
		var se *bench.SelectError
		if errors.As(err, &ue) || errors.As(err, &se) {
			return 2
		}
		return 1
	}
	return 0
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func parseSizes(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	if s == "matrix" {
		return bench.MatrixSizes, nil
	}
	var out []int
	for _, p := range splitList(s) {
		mult, num := 1, strings.ToLower(p)
		switch {
		case strings.HasSuffix(num, "k"):
			mult, num = 1<<10, strings.TrimSuffix(num, "k")
		case strings.HasSuffix(num, "m"):
			mult, num = 1<<20, strings.TrimSuffix(num, "m")
		}
		n, err := strconv.Atoi(num)
		if err != nil || n <= 0 || n > 256<<20/mult {
			return nil, usagef("bad -size %q (want sizes like 16,1k,16k up to 256m, or \"matrix\")", p)
		}
		out = append(out, n*mult)
	}
	return out, nil
}

func parseOffsets(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	if s == "all" {
		return bench.AllOffsets, nil
	}
	var out []int
	for _, p := range splitList(s) {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 4096 {
			return nil, usagef("bad -offset %q (want offsets 0..4096 like 0,1,8,64,97, or \"all\")", p)
		}
		out = append(out, n)
	}
	return out, nil
}

func runSpeedFlags(f *speedFlags, stdout, stderr io.Writer, interactive bool) error {
	switch f.format {
	case "table", "csv", "json", "gobench":
	default:
		return usagef("unknown -format %q (valid: table, csv, json, gobench)", f.format)
	}
	if f.report && f.format != "table" {
		return usagef("-report prints its own table; it cannot be combined with -format %s", f.format)
	}
	if f.plot != "" {
		if ext := strings.ToLower(filepath.Ext(f.plot)); ext != ".svg" && ext != ".png" {
			return usagef("-plot %q: the file name must end in .svg or .png", f.plot)
		}
	}
	if f.count < 1 || f.reps < 1 || f.slices < 1 || f.threads < 1 {
		return usagef("-count, -reps, -slices and -threads must be at least 1")
	}
	if f.mhz < 0 || f.duration < 0 {
		return usagef("-cpu-mhz and -duration must not be negative")
	}
	if f.load != "" {
		return loadAndRender(f, stdout, stderr)
	}
	sizes, err := parseSizes(f.size)
	if err != nil {
		return err
	}
	offsets, err := parseOffsets(f.offset)
	if err != nil {
		return err
	}
	if len(offsets) > 0 && len(sizes) == 0 {
		sizes = bench.MatrixSizes
	}
	if f.plot != "" && len(sizes) == 0 {
		// A throughput curve needs fixed sizes.
		sizes = bench.MatrixSizes
	}

	all, unavailable := bench.Targets()
	var compareA, compareB string
	if f.compare != "" {
		parts := splitList(f.compare)
		if len(parts) != 2 {
			return usagef("-compare wants two names, A,B (implementations or JSON files), got %q", f.compare)
		}
		compareA, compareB = parts[0], parts[1]
		if isFile(compareA) && isFile(compareB) {
			return compareFiles(compareA, compareB, stdout)
		}
		if isFile(compareA) || isFile(compareB) {
			return usagef("-compare %s: give two saved JSON files or two implementations, not one of each", f.compare)
		}
	}
	implPats := splitList(f.impl)
	if f.compare != "" {
		if len(implPats) > 0 {
			return usagef("-compare A,B chooses the implementations itself; drop -impl")
		}
		implPats = []string{compareA, compareB}
	}
	targets, err := bench.Select(all, unavailable, splitList(f.cipher), implPats)
	if err != nil {
		return err
	}

	cfg := bench.Config{Sizes: sizes, Offsets: offsets, Duration: f.duration, Reps: f.reps, Slices: f.slices, Count: f.count,
		Cold: f.cold, Threads: f.threads, MHz: f.mhz}
	if err := cfg.Validate(targets); err != nil {
		return usageError{err.Error()}
	}
	if cfg.Duration == 0 {
		cfg.Duration = cfg.AutoDuration(len(targets), speedBudget)
		cfg.Budget = speedBudget
	}
	env := &bench.Env{CPUName: bench.CPUName(), CPUDesc: cpuDesc(), Mask: cpu.MaskSpec(), Config: cfg,
		Unavailable: unavailable, NoBaseline: bench.NoBaseline(targets), MHzMeasured: f.mhz == 0}
	if f.cold {
		cfg.ColdBytes, env.ColdHow = bench.ColdWorkingSet()
	}
	if f.list {
		for _, t := range targets {
			label := t.Impl
			if role := t.Role(); role != "" {
				label += " (" + role + ")"
			}
			fmt.Fprintf(stdout, "%-16s %-8s %s\n", t.Cipher, t.Direction, label)
		}
		fmt.Fprintf(stdout, "%d targets, %d measurements of %v each\n", len(targets), cfg.Plan(len(targets)), cfg.Duration)
		return nil
	}
	env.MHz = cfg.MHz
	if interactive {
		cfg.Progress = func(done, total int, what string) {
			if what == "" {
				fmt.Fprint(stderr, "\r\033[K")
				return
			}
			fmt.Fprintf(stderr, "\r\033[K[%d/%d] %s", done+1, total, what)
		}
	}
	env.Config = cfg
	start := time.Now()
	results, err := bench.Measure(targets, cfg)
	if err != nil {
		return err
	}
	env.Elapsed = time.Since(start)
	env.SetClock(results)

	if f.compare != "" {
		bench.WriteHeader(stdout, env)
		fmt.Fprintln(stdout)
		bench.WriteComparisons(stdout, bench.CompareImpls(results, compareA, compareB), compareA, compareB)
		return nil
	}
	return render(f, results, env, stdout, stderr)
}

// render writes results in the chosen format, and the plot when asked.
func render(f *speedFlags, results []bench.Result, env *bench.Env, stdout, stderr io.Writer) error {
	var err error
	switch {
	case f.report:
		bench.WriteReport(stdout, results, env)
	case f.format == "table":
		bench.WriteTable(stdout, results, env)
	case f.format == "csv":
		err = bench.WriteCSV(stdout, results)
	case f.format == "json":
		err = bench.WriteJSON(stdout, results, env)
	case f.format == "gobench":
		bench.WriteGobench(stdout, results, env)
	}
	if err != nil {
		return err
	}
	if f.plot != "" {
		if err := bench.Plot(f.plot, results, env); err != nil {
			return fmt.Errorf("-plot: %v", err)
		}
		fmt.Fprintf(stderr, "simdcrypt speed: wrote %s\n", f.plot)
	}
	return nil
}

func isFile(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.Mode().IsRegular()
}

// loadAndRender is -load: saved results, rendered without measuring.
func loadAndRender(f *speedFlags, stdout, stderr io.Writer) error {
	for name := range f.set {
		switch name {
		case "load", "format", "report", "plot":
		default:
			return usagef("-load renders saved results and takes only -format, -report and -plot, not -%s", name)
		}
	}
	rs, env, err := readResults(f.load)
	if err != nil {
		return err
	}
	env.Source = filepath.Base(f.load)
	return render(f, rs, env, stdout, stderr)
}

func readResults(name string) ([]bench.Result, *bench.Env, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, nil, usageError{err.Error()}
	}
	defer fh.Close()
	rs, env, err := bench.ReadJSON(fh)
	if err != nil {
		return nil, nil, usagef("%s: not a JSON file from `simdcrypt speed -format json`: %v", name, err)
	}
	return rs, env, nil
}

func compareFiles(a, b string, w io.Writer) error {
	ra, _, err := readResults(a)
	if err != nil {
		return err
	}
	rb, _, err := readResults(b)
	if err != nil {
		return err
	}
	bench.WriteComparisons(w, bench.CompareRuns(ra, rb), a, b)
	return nil
}

func cpuDesc() string {
	c := cpu.CPU()
	vendor, uarch := c.Vendor, c.Uarch
	if vendor == "" {
		return "no x86 CPUID"
	}
	if uarch == "" {
		uarch = "unknown microarchitecture"
	}
	return fmt.Sprintf("%s %s (family %#x, model %#x)", vendor, uarch, c.Family, c.Model)
}
