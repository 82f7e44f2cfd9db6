package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/simdcrypt/simdcrypt/cmd/simdcrypt/internal/bench"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// speedBudget is the default -time: the whole default run, all ciphers,
// modes and paths, ends within it however loaded the machine is.
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
	cipher, impl, size, offset, format, plot, compare, load, estimator string
	set                                                                map[string]bool // flags given on the command line
	duration, budget                                                   time.Duration
	count, reps, slices, threads                                       int
	mhz                                                                float64
	cold, report, list, wide, openssl                                  bool
}

func speedFlagSet(f *speedFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("speed", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.cipher, "cipher", "", "ciphers, comma-separated: names (aes-128-ctr), globs (aes-*-ctr), families (aria) or family-bits (aes-256)")
	fs.StringVar(&f.impl, "impl", "", "implementations, comma-separated names or globs; \"default\" = the dispatched path, \"baseline\" = Go's own")
	fs.StringVar(&f.size, "size", "", "fixed sizes in bytes (16,1k,16k) or \"matrix\" for 16,64,256,1K,8K,16K; empty = slope fit")
	fs.StringVar(&f.offset, "offset", "", "source/destination offsets from a 64-byte boundary (0,1,8) or \"all\" for 0,1,8,64,97")
	fs.DurationVar(&f.budget, "time", speedBudget, "budget for the whole run: under load it measures fewer repetitions or sizes, and says so")
	fs.DurationVar(&f.duration, "duration", 0, "fixed time per measurement instead of a budget (no cuts)")
	fs.IntVar(&f.count, "count", 1, "repeat the whole run N times (for benchstat and -compare)")
	fs.IntVar(&f.reps, "reps", bench.DefaultReps, "repetitions inside each measurement")
	fs.IntVar(&f.slices, "slices", 0, "timed slices per batch (0 = automatic: slices of at most 250µs for the median estimator, 4 for the others; 1 = whole batches, like go test -bench)")
	fs.StringVar(&f.estimator, "estimator", bench.EstimatorMedian, "figure from the timed slices: median (of all slices), fastest (median of each rep's fastest) or mean (total time / bytes, as openssl speed)")
	fs.BoolVar(&f.openssl, "openssl", false, "also run `openssl speed -evp` for every cipher and size it has, between our rows; ×ossl compares means")
	fs.BoolVar(&f.wide, "wide", false, "table: also ns/B, MHz, reps, per-call overhead, 16K speed and variant/path ratio")
	fs.IntVar(&f.threads, "threads", 1, "also measure on N goroutines at once (per-thread and total throughput)")
	fs.Float64Var(&f.mhz, "cpu-mhz", 0, "core clock for cycles/byte (0 = measure it)")
	fs.BoolVar(&f.cold, "cold", false, "cache-cold: rotate calls over a working set twice the last-level cache")
	fs.StringVar(&f.format, "format", "table", "output: table, csv, json (an array), jsonl (JSON lines) or gobench; rows are written as they finish")
	fs.BoolVar(&f.report, "report", false, "print OpenSSL's table: cycles/byte, one column per implementation")
	fs.StringVar(&f.plot, "plot", "", "also write a throughput-vs-size plot to FILE.svg")
	fs.StringVar(&f.compare, "compare", "", "A,B: compare two implementations, or two JSON files from -format json (Mann–Whitney U)")
	fs.BoolVar(&f.list, "list", false, "list what would be measured and exit")
	fs.StringVar(&f.load, "load", "", "render results saved with -format json or jsonl (with -format, -report, -wide, -plot) instead of measuring")
	return fs
}

const speedExamples = `
examples:
  simdcrypt speed                                   every cipher, mode and path, slope fit, 35 s
  simdcrypt speed -openssl -cipher aes-128-ctr,chacha20   next to openssl speed, same run
  simdcrypt speed -format jsonl | jq -c 'select(.default)'   rows as they finish
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
	return parseList(s, "matrix", bench.MatrixSizes, func(p string) (int, error) {
		mult, num := 1, strings.ToLower(p)
		switch {
		case strings.HasSuffix(num, "k"):
			mult, num = 1<<10, strings.TrimSuffix(num, "k")
		case strings.HasSuffix(num, "m"):
			mult, num = 1<<20, strings.TrimSuffix(num, "m")
		}
		n, err := strconv.Atoi(num)
		if err != nil || n <= 0 || n > 256<<20/mult {
			return 0, usagef("bad -size %q (want sizes like 16,1k,16k up to 256m, or \"matrix\")", p)
		}
		return n * mult, nil
	})
}

func parseOffsets(s string) ([]int, error) {
	return parseList(s, "all", bench.AllOffsets, func(p string) (int, error) {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 4096 {
			return 0, usagef("bad -offset %q (want offsets 0..4096 like 0,1,8,64,97, or \"all\")", p)
		}
		return n, nil
	})
}

// parseList parses the comma-separated list s, each item with parseOne;
// the word keyword stands for preset, and "" for no list.
func parseList(s, keyword string, preset []int, parseOne func(item string) (int, error)) ([]int, error) {
	switch s {
	case "":
		return nil, nil
	case keyword:
		return preset, nil
	}
	var out []int
	for _, p := range splitList(s) {
		n, err := parseOne(p)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

func runSpeedFlags(f *speedFlags, stdout, stderr io.Writer, interactive bool) error {
	start := time.Now()
	if !slices.Contains(bench.Formats, f.format) {
		return usagef("unknown -format %q (valid: %s)", f.format, strings.Join(bench.Formats, ", "))
	}
	if f.report && f.format != "table" {
		return usagef("-report prints its own table; it cannot be combined with -format %s", f.format)
	}
	if f.plot != "" {
		if ext := strings.ToLower(filepath.Ext(f.plot)); ext != ".svg" {
			return usagef("-plot %q: the file name must end in .svg (PNG output was dropped with the plotting library)", f.plot)
		}
	}
	if !slices.Contains(bench.Estimators, f.estimator) {
		return usagef("unknown -estimator %q (valid: %s)", f.estimator, strings.Join(bench.Estimators, ", "))
	}
	if f.count < 1 || f.reps < 1 || f.threads < 1 {
		return usagef("-count, -reps and -threads must be at least 1")
	}
	if f.slices < 0 {
		return usagef("-slices must be 0 (automatic) or more")
	}
	if f.mhz < 0 || f.duration < 0 || f.budget <= 0 {
		return usagef("-cpu-mhz and -duration must not be negative, -time must be positive")
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
		Cold: f.cold, Threads: f.threads, MHz: f.mhz, Estimator: f.estimator}
	if err := cfg.Validate(targets); err != nil {
		return usageError{err.Error()}
	}
	env := &bench.Env{CPUName: bench.CPUName(), CPUDesc: cpuDesc(), Mask: cpu.MaskSpec(),
		Unavailable: unavailable, NoBaseline: bench.NoBaseline(targets), MHzMeasured: f.mhz == 0, Wide: f.wide}
	if f.openssl {
		if o, note := findOpenSSL(); o == nil {
			fmt.Fprintf(stderr, "simdcrypt speed: %s\n", note)
			env.PeerNote = note
		} else {
			targets = o.peers(targets)
			env.Peer = o.version
		}
	}
	// A budget for the whole run unless -duration fixes each
	// measurement; openssl's runs (a second each at least) come on top.
	if cfg.Duration == 0 || f.set["time"] {
		cfg.Budget = f.budget
		if peer := cfg.PeerTime(targets); peer > 0 {
			cfg.Budget += peer
			fmt.Fprintf(stderr, "simdcrypt speed: openssl speed runs %s more (one second per cipher and size, its shortest)\n",
				bench.FormatDuration(peer))
		}
		if cfg.Duration == 0 {
			cfg.Duration = cfg.AutoDuration(targets, cfg.Budget)
		}
		cfg.Start = start
	}
	if f.cold {
		cfg.ColdBytes, env.ColdHow = bench.ColdWorkingSet()
	}
	if f.list {
		for _, t := range targets {
			label := t.Impl
			if t.Kernel != "" {
				label = fmt.Sprintf("%s (kernel %s)", t.Impl, t.Kernel)
			}
			if role := t.Role(); role != "" {
				label += " (" + role + ")"
			}
			if t.Foreign {
				label += " (peer: openssl speed)"
			}
			fmt.Fprintf(stdout, "%-16s %-8s %s\n", t.Cipher, t.Direction, label)
		}
		fmt.Fprintf(stdout, "%d targets, %d measurements of up to %s each\n", len(targets), cfg.Plan(targets), bench.FormatDuration(cfg.Duration))
		return nil
	}
	env.MHz = cfg.MHz
	env.Config = cfg

	// Where the rows go as they finish: the chosen format, or nowhere yet
	// for -compare, which prints its verdicts at the end.
	format := f.format
	if f.report {
		format = "report"
	}
	var sink bench.Sink
	if f.compare == "" {
		if sink, err = bench.NewSink(format, stdout, env); err != nil {
			return err
		}
		if err := sink.Begin(targets); err != nil {
			return err
		}
	}
	prog := &progress{w: stderr, on: interactive}
	cfg.Progress = prog.update
	var results []bench.Result
	var sinkErr error
	cfg.OnResult = func(rs []bench.Result) {
		results = append(results, rs...)
		if sink != nil && sinkErr == nil {
			prog.clear()
			sinkErr = sink.Add(rs)
		}
	}
	_, err = bench.Measure(targets, cfg)
	prog.clear()
	if err != nil {
		return err
	}
	if sinkErr != nil {
		return sinkErr
	}
	env.Elapsed = time.Since(start)
	env.SetClock(results)

	if f.compare != "" {
		bench.WriteHeader(stdout, env)
		fmt.Fprintln(stdout)
		bench.WriteComparisons(stdout, bench.CompareImpls(results, compareA, compareB), compareA, compareB)
		return nil
	}
	if err := sink.End(); err != nil {
		return err
	}
	if format != "table" && format != "report" {
		// Machine formats keep stdout parseable: the noise verdict goes
		// to stderr.
		fmt.Fprint(stderr, bench.Summary(bench.Rows(results, &env.Config), env))
	}
	return writePlot(f, results, env, stderr)
}

// progress draws "[12/192] aes-128-cbc/encrypt/aesni  ETA 31 s" on a
// terminal, replacing itself; rows written meanwhile clear it first.
type progress struct {
	w     io.Writer
	on    bool
	drawn bool
}

func (p *progress) update(done, total int, what string, left time.Duration) {
	if !p.on {
		return
	}
	if what == "" {
		p.clear()
		return
	}
	eta := ""
	if left > 0 {
		eta = "  ETA " + bench.FormatDuration(left)
	}
	fmt.Fprintf(p.w, "\r\033[K[%d/%d] %s%s", done+1, total, what, eta)
	p.drawn = true
}

func (p *progress) clear() {
	if p.on && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// writePlot writes the -plot file, if asked.
func writePlot(f *speedFlags, results []bench.Result, env *bench.Env, stderr io.Writer) error {
	if f.plot == "" {
		return nil
	}
	if err := bench.Plot(f.plot, results, env); err != nil {
		return fmt.Errorf("-plot: %v", err)
	}
	fmt.Fprintf(stderr, "simdcrypt speed: wrote %s\n", f.plot)
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
		case "load", "format", "report", "plot", "wide":
		default:
			return usagef("-load renders saved results and takes only -format, -report, -wide and -plot, not -%s", name)
		}
	}
	rs, env, err := readResults(f.load)
	if err != nil {
		return err
	}
	env.Source = filepath.Base(f.load)
	env.Wide = f.wide
	format := f.format
	if f.report {
		format = "report"
	}
	if err := bench.WriteAll(format, stdout, rs, env); err != nil {
		return err
	}
	return writePlot(f, rs, env, stderr)
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
