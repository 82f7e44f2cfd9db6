package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

func runCPU(args []string) int {
	fs := flag.NewFlagSet("cpu", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(os.Stderr, "simdcrypt cpu: %v (the command takes no flags)\n", err)
		return 2
	}
	printCPU(os.Stdout)
	return 0
}

func printCPU(w io.Writer) {
	c := cpu.CPU()
	uarch := c.Uarch
	if uarch == "" {
		uarch = "unknown microarchitecture"
	}
	vendor := c.Vendor
	if vendor == "" {
		vendor = "no x86 CPUID (portable Go only)"
	}
	fmt.Fprintf(w, "CPU:  %s, %s (family %#x, model %#x, stepping %d)\n", vendor, uarch, c.Family, c.Model, c.Stepping)
	env := cpu.EnvSpec()
	if env == "" {
		env = "(unset)"
	}
	fmt.Fprintf(w, "%s: %s\n", cpu.EnvVar, env)
	if err := cpu.EnvError(); err != nil {
		fmt.Fprintf(w, "  warning: ignored %v\n", err)
	}

	fmt.Fprintln(w, "\nFeatures:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  feature\tdetected\tusable")
	for _, f := range cpu.All() {
		if !f.IsProperty() {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", f, yesNo(cpu.Detected(f)), usable(f))
		}
	}
	tw.Flush()

	fmt.Fprintln(w, "\nProperties (per-microarchitecture table; maskable like features):")
	why := cpu.Prefer256Reason()
	if why == "" {
		why = "not on this microarchitecture: 512-bit paths run where the CPU has them"
	} else if cpu.Masked(cpu.Prefer256) {
		why += "; masked, so 512-bit paths run anyway"
	} else {
		why += "; 512-bit paths are passed over"
	}
	fmt.Fprintf(w, "  %s: %s (%s)\n", cpu.Prefer256, usable(cpu.Prefer256), why)

	fmt.Fprintln(w, "\nImplementations (dispatch order; * runs by default):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range catalog.Ciphers() {
		chosen, why := c.Chosen()
		fmt.Fprintf(tw, "  %s\tdefault: %s\t(%s)\n", c.Name, chosen.Name, why)
		for _, p := range c.Paths {
			mark := " "
			if p == chosen {
				mark = "*"
			}
			state := "available"
			switch {
			case !p.Available():
				state = "unavailable: needs " + joinFeatures(p.Missing())
			case p.VariantOf != "":
				state = "available (variant of " + p.VariantOf + ", measured, never dispatched)"
			case p.Wide && cpu.Has(cpu.Prefer256):
				state = "available, passed over: 512-bit vectors on a CPU that prefers 256"
			}
			notes := p.Notes
			if p.Stdlib {
				notes = "delegates to the standard library; " + notes
			}
			fmt.Fprintf(tw, "   %s %s\t%s\t%s\n", mark, p.Name, state, notes)
		}
		for _, op := range chosen.Ops {
			var avail []string
			for _, p := range c.Paths {
				if p.Available() {
					avail = append(avail, p.KernelFor(op))
				}
			}
			fmt.Fprintf(tw, "     %s\truns %s\tavailable: %s\n", op, chosen.KernelFor(op), strings.Join(dedup(avail), ", "))
		}
	}
	tw.Flush()
}

func usable(f cpu.Feature) string {
	switch {
	case cpu.Detected(f) && cpu.Masked(f):
		return "no (masked)"
	case cpu.Has(f):
		return "yes"
	}
	return "no"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func joinFeatures(fs []cpu.Feature) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.String())
	}
	return strings.Join(s, "+")
}

func dedup(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
