package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/simdcrypt/simdcrypt/internal/cpu"
	"github.com/simdcrypt/simdcrypt/internal/impl"
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
	if unk := cpu.UnknownEnvEntries(); len(unk) > 0 {
		fmt.Fprintf(w, "  ignored unknown entries: %s (valid: name=off for %s, or all=off)\n",
			strings.Join(unk, ", "), featureList())
	}

	fmt.Fprintln(w, "\nFeatures:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  feature\tdetected\tusable")
	for _, f := range cpu.All() {
		usable := yesNo(cpu.Has(f))
		if cpu.Detected(f) && cpu.Masked(f) {
			usable = "no (masked)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", f, yesNo(cpu.Detected(f)), usable)
	}
	tw.Flush()

	fmt.Fprintln(w, "\nImplementations (dispatch order; * runs by default):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, name := range impl.Ciphers() {
		chosen, why := impl.Choose(name)
		fmt.Fprintf(tw, "  %s\tdefault: %s\t(%s)\n", name, chosen.Name, why)
		for _, i := range impl.For(name) {
			mark := " "
			if i == chosen {
				mark = "*"
			}
			state := "available"
			if !i.Available() {
				state = "unavailable: needs " + joinFeatures(i.Missing())
			} else if i.Variant {
				state = "available (comparison variant, never dispatched)"
			} else if i.Avoid != nil {
				if why := i.Avoid(); why != "" {
					state = "available, passed over: " + why
				}
			}
			fmt.Fprintf(tw, "   %s %s\t%s\t%s\n", mark, i.Name, state, i.Notes)
		}
		for _, op := range chosen.Ops() {
			var avail []string
			for _, i := range impl.For(name) {
				if i.Available() {
					avail = append(avail, i.KernelFor(op))
				}
			}
			fmt.Fprintf(tw, "     %s\truns %s\tavailable: %s\n", op, chosen.KernelFor(op), strings.Join(dedup(avail), ", "))
		}
	}
	tw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func featureList() string {
	var names []string
	for _, f := range cpu.All() {
		names = append(names, f.String())
	}
	return strings.Join(names, ", ")
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
