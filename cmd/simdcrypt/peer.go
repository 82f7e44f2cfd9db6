package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/simdcrypt/simdcrypt/cmd/simdcrypt/internal/bench"
)

// opensslSeconds is how long each openssl speed run lasts: its -seconds
// takes whole seconds, and one is the least.
const opensslSeconds = 1

// opensslCost is the wall time of one openssl speed run, start-up
// included, for the budget.
const opensslCost = opensslSeconds*time.Second + 60*time.Millisecond

// openssl finds the openssl command and the EVP ciphers it offers. A
// missing or unusable openssl gives a one-line note instead.
type openssl struct {
	path, version string
	// elapsed runs openssl on wall-clock time (-elapsed) where our
	// figures have no CPU-time mean to set against its default.
	elapsed bool
	ciphers map[string]bool // lower-case EVP names: "aes-128-ctr", "chacha20"
}

func findOpenSSL() (*openssl, string) {
	path, err := exec.LookPath("openssl")
	if err != nil {
		return nil, "openssl not found in PATH: measuring without it"
	}
	out, err := exec.Command(path, "version").Output()
	if err != nil {
		return nil, fmt.Sprintf("%s version failed (%v): measuring without it", path, err)
	}
	o := &openssl{path: path, elapsed: !bench.CPUTimeAvailable(), version: strings.Join(strings.Fields(string(out))[:min(2, len(strings.Fields(string(out))))], " "),
		ciphers: map[string]bool{}}
	list, err := exec.Command(path, "list", "-cipher-algorithms").Output()
	if err != nil {
		return nil, fmt.Sprintf("%s list -cipher-algorithms failed (%v): measuring without it", path, err)
	}
	// Lines are "  AES-128-CTR", "  { 2.16.840..., AES-128-ECB } @ default".
	for _, f := range strings.FieldsFunc(string(list), func(r rune) bool { return r == ' ' || r == '\n' || r == ',' || r == '{' || r == '}' }) {
		o.ciphers[strings.ToLower(f)] = true
	}
	return o, ""
}

// evpName is the EVP cipher openssl speed measures for t ("aes-128-ctr",
// "chacha20"), "" when openssl has none (xchacha20).
func (o *openssl) evpName(t *bench.Target) string {
	name := t.Cipher
	if o.ciphers[name] {
		return name
	}
	return ""
}

// peers inserts, at the head of each cipher and direction group that
// openssl can measure, a peer target that runs openssl speed, so its row
// comes first in the group and every row after can be set against it.
func (o *openssl) peers(ts []*bench.Target) []*bench.Target {
	var out []*bench.Target
	seen := map[string]bool{}
	for _, t := range ts {
		g := t.Group()
		if !seen[g] && !t.Foreign {
			seen[g] = true
			if evp := o.evpName(t); evp != "" {
				out = append(out, o.target(t, evp))
			}
		}
		out = append(out, t)
	}
	return out
}

func (o *openssl) target(like *bench.Target, evp string) *bench.Target {
	t := &bench.Target{Family: like.Family, Cipher: like.Cipher, Mode: like.Mode, KeyBits: like.KeyBits,
		Direction: like.Direction, Impl: "openssl", Align: like.Align, Foreign: true, PeerCost: opensslCost}
	decrypt := like.Direction == "decrypt"
	t.Peer = func(size, offset int) (float64, bool, error) {
		ns, err := o.speed(evp, decrypt, size, offset)
		return ns, !o.elapsed, err
	}
	return t
}

// speed runs `openssl speed -evp evp -bytes size -seconds 1 -mr` and
// returns its ns per byte: the mean over its run, total bytes over its
// user CPU time (or, with -elapsed, over wall time).
func (o *openssl) speed(evp string, decrypt bool, size, offset int) (float64, error) {
	args := []string{"speed", "-evp", evp, "-bytes", strconv.Itoa(size), "-seconds", strconv.Itoa(opensslSeconds), "-mr"}
	if decrypt {
		args = append(args, "-decrypt")
	}
	if offset > 0 {
		args = append(args, "-misalign", strconv.Itoa(offset))
	}
	if o.elapsed {
		args = append(args, "-elapsed")
	}
	cmd := exec.Command(o.path, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("openssl %s: %v: %s", strings.Join(args, " "), err, firstLine(errOut.String()))
	}
	bps, err := parseOpenSSLSpeed(out.String())
	if err != nil {
		return 0, fmt.Errorf("openssl %s: %v", strings.Join(args, " "), err)
	}
	return 1e9 / bps, nil
}

// parseOpenSSLSpeed reads the bytes per second from openssl speed -mr's
// "+F:<n>:<cipher>:<bytes/s>" line (the last one when there are several).
func parseOpenSSLSpeed(s string) (float64, error) {
	bps := 0.0
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "+F:") {
			continue
		}
		f := strings.Split(line, ":")
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil || v <= 0 {
			return 0, fmt.Errorf("unreadable result line %q", line)
		}
		bps = v
	}
	if bps == 0 {
		return 0, fmt.Errorf("no +F result line in its output")
	}
	return bps, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
