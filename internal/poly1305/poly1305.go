// Package poly1305 implements the Poly1305 one-time authenticator of
// RFC 8439 on several code paths, for the chacha20poly1305 AEAD and the
// exported poly1305 package.
//
// Code paths (SIMDCRYPT_CPU masks them through internal/cpu):
//
//	ifma     AVX-512 IFMA: 16 blocks per step, two chains of 8 lanes, in radix
//	         2^44 (VPMADD52LUQ/HUQ)
//	avx2     4 blocks per step in radix 2^26 (VPMULUDQ)
//	mulx     one block per step, 64-bit limbs, MULX and ADCX/ADOX
//	generic  portable Go, one block per step, 64-bit limbs with math/bits
//
// The vector paths multiply by precomputed powers of r; they run only on
// inputs long enough to pay for computing those powers and hand everything
// shorter (and every tail shorter than a vector step) to the scalar path of
// the same CPU, so a short message never pays vector setup.
//
// Every path is constant time: the only branches are on lengths.
package poly1305

import (
	"crypto/subtle"
	"encoding/binary"

	"github.com/simdcrypt/simdcrypt/internal/catalog"
	"github.com/simdcrypt/simdcrypt/internal/cpu"
)

// TagSize is the size of a Poly1305 tag, in bytes.
const TagSize = 16

// Path names a code path. Every build knows all of them; Available says
// whether this build and CPU can run one.
type Path uint8

const (
	Generic Path = iota
	MULX
	AVX2
	IFMA
	numPaths
)

var pathNames = [numPaths]string{
	Generic: "generic",
	MULX:    "mulx",
	AVX2:    "avx2",
	IFMA:    "ifma",
}

// pathRequires: the vector paths hand tails to mulx and compute their
// powers with its step, so they need its features too.
var pathRequires = [numPaths][]cpu.Feature{
	MULX: {cpu.BMI2, cpu.ADX},
	AVX2: {cpu.AVX2, cpu.BMI2, cpu.ADX},
	IFMA: {cpu.AVX512IFMA, cpu.BMI2, cpu.ADX},
}

var pathNotes = [numPaths]string{
	IFMA:    "16 blocks per step (two interleaved chains of 8 lanes) in radix 2^44 with AVX-512 IFMA; under 256 bytes, mulx",
	AVX2:    "4 blocks per step in radix 2^26 in YMM; under 384 bytes, mulx",
	MULX:    "one block per step in 64-bit limbs with MULX and ADCX/ADOX",
	Generic: "portable Go (math/bits), one block per step",
}

// table is the dispatch over the catalogue: the paths this build has, best
// first; ifma (512-bit vectors) is Wide, passed over while cpu.Prefer256 is
// usable.
var table = func() *catalog.Table[Path] {
	var entries []catalog.Entry[Path]
	for _, p := range Paths() {
		if !p.Built() {
			continue
		}
		entries = append(entries, catalog.Entry[Path]{Impl: p, Path: &catalog.Path{
			Cipher: "poly1305", Name: p.String(), Requires: pathRequires[p], Wide: p == IFMA,
			Notes: pathNotes[p], Ops: catalog.MACOps,
			NewAuthenticator: func(key *[32]byte) catalog.Authenticator { return NewOn(key, p) },
		}})
	}
	return catalog.NewTable("poly1305", entries...)
}()

func (p Path) String() string {
	if p < numPaths {
		return pathNames[p]
	}
	return "unknown"
}

// Requires returns the CPU features the path needs.
func (p Path) Requires() []cpu.Feature { return pathRequires[p] }

// Built reports whether this build has the path's code.
func (p Path) Built() bool { return p < numPaths && built[p] }

// Available reports whether this build has the path and the CPU, under the
// current mask, can run it.
func (p Path) Available() bool { return p < numPaths && built[p] && cpu.HasAll(pathRequires[p]...) }

// Paths returns every path, in dispatch preference (best first).
func Paths() []Path { return []Path{IFMA, AVX2, MULX, Generic} }

// Chosen returns the path the catalogue chooses now (cached per CPU mask).
func Chosen() Path { return table.Chosen() }

// core is the accumulator and key of one message, all a scalar path
// needs. h is kept partially reduced (below 2^130 + 2^66 between blocks)
// in three 64-bit words; r holds the clamped r0 and r1 and s1 = r1 + r1/4
// (see blocksGeneric).
type core struct {
	h [3]uint64
	r [3]uint64
	s [2]uint64
}

func (c *core) init(key *[32]byte) {
	c.h = [3]uint64{}
	c.r[0] = binary.LittleEndian.Uint64(key[0:8]) & 0x0ffffffc0fffffff
	c.r[1] = binary.LittleEndian.Uint64(key[8:16]) & 0x0ffffffc0ffffffc
	c.r[2] = c.r[1] + c.r[1]>>2
	c.s[0] = binary.LittleEndian.Uint64(key[16:24])
	c.s[1] = binary.LittleEndian.Uint64(key[24:32])
}

// state is a core with what the vector paths add to it.
//
// It holds no powers of r: the vector paths compute theirs for each input
// long enough to use them, in their own frame (see vectorBlocks), unless
// the caller lends room for them (WriteKeeping). A MAC
// that New puts on the heap for every message then costs what x/crypto's
// does: on Zen 5 (a KVM guest), Go 1.26 spent about 0.7 ns per byte of a
// short-lived allocation, 600 ns for the 896-byte MAC that kept a 720-byte
// table, against 100 ns for x/crypto's whole 64-byte MAC.
type state struct {
	core

	// kept: the powers are in the room a caller of WriteKeeping lends.
	kept bool
}

func (st *state) init(key *[32]byte) {
	st.core.init(key)
	st.kept = false
}

// Powers is room for the powers of r that a vector path multiplies by.
type Powers powers

// MAC is a Poly1305 authenticator for one message under a one-time key.
type MAC struct {
	st    state
	buf   [TagSize]byte
	n     int // bytes in buf
	path  Path
	final bool
}

// New returns a MAC for key on the best path available now.
func New(key *[32]byte) *MAC {
	m := &MAC{}
	m.Init(key, Chosen())
	return m
}

// NewOn returns a MAC for key pinned to path p (which must be available).
func NewOn(key *[32]byte, p Path) *MAC {
	m := &MAC{}
	m.Init(key, p)
	return m
}

// Init sets m up for key on path p; it lets callers keep a MAC off the heap.
func (m *MAC) Init(key *[32]byte, p Path) {
	m.st.init(key)
	m.n = 0
	m.path = p
	m.final = false
}

// Size returns TagSize.
func (m *MAC) Size() int { return TagSize }

// Write adds p to the message. It panics after Sum or Verify, as
// x/crypto's does. It never returns an error.
func (m *MAC) Write(p []byte) (int, error) { return m.write(p, nil) }

// WriteKeeping is Write for a caller that feeds one long message in
// several writes (chacha20poly1305's chunks): the powers of r go to pw,
// zero before the first write and the same for all of them, and are
// computed once instead of once per long write.
func (m *MAC) WriteKeeping(p []byte, pw *Powers) { m.write(p, (*powers)(pw)) }

// write is Write with the room for the powers, or nil for none.
func (m *MAC) write(p []byte, pw *powers) (int, error) {
	if m.final {
		panic("poly1305: write to MAC after Sum or Verify")
	}
	n := len(p)
	if m.n > 0 {
		k := copy(m.buf[m.n:], p)
		m.n += k
		p = p[k:]
		if m.n < TagSize {
			return n, nil
		}
		blocks(&m.st, m.path, m.buf[:], pw)
		m.n = 0
	}
	if full := len(p) &^ (TagSize - 1); full > 0 {
		blocks(&m.st, m.path, p[:full], pw)
		p = p[full:]
	}
	m.n = copy(m.buf[:], p)
	return n, nil
}

// WriteBlocks adds p, whose length must be a multiple of 16, when nothing is
// buffered: the AEAD's padded fields need no buffering.
func (m *MAC) WriteBlocks(p []byte) {
	if m.n != 0 || len(p)%TagSize != 0 || m.final {
		panic("poly1305: WriteBlocks misuse")
	}
	blocks(&m.st, m.path, p, nil)
}

// Scalar returns the accumulator h (three 64-bit words, below 2^130 + 2^66
// between blocks) and the key words r0, r1 and s1 = r1 + r1/4, for a caller
// that absorbs whole blocks with its own code (the AEAD's stitched kernels)
// and then hands h back. Nothing may be buffered.
func (m *MAC) Scalar() (h, r *[3]uint64) {
	if m.n != 0 || m.final {
		panic("poly1305: Scalar misuse")
	}
	return &m.st.h, &m.st.r
}

// Sum appends the tag to b. Unlike Write it may be repeated.
func (m *MAC) Sum(b []byte) []byte {
	var tag [TagSize]byte
	m.sum(&tag)
	m.final = true
	return append(b, tag[:]...)
}

// Verify reports, in constant time, whether expected is the tag.
func (m *MAC) Verify(expected []byte) bool {
	var tag [TagSize]byte
	m.sum(&tag)
	m.final = true
	return subtle.ConstantTimeCompare(expected, tag[:]) == 1
}

func (m *MAC) sum(out *[TagSize]byte) {
	h := m.st.h
	if m.n > 0 {
		// The last, partial block is padded with a 1 byte and zeros and
		// gets no 2^128 bit.
		var last [TagSize]byte
		copy(last[:], m.buf[:m.n])
		last[m.n] = 1
		c := m.st.core
		blocksGeneric(&c, last[:], 0)
		h = c.h
	}
	finalize(out, &h, &m.st.s)
}

// Sum writes the tag of msg under key to out, on the best path available.
func Sum(out *[TagSize]byte, msg []byte, key *[32]byte) {
	SumOn(out, msg, key, Chosen())
}

// SumOn is Sum pinned to path p.
func SumOn(out *[TagSize]byte, msg []byte, key *[32]byte, p Path) {
	var m MAC
	m.Init(key, p)
	m.Write(msg)
	m.sum(out)
}

// SumBlocks writes the tag of msg, whose length must be a multiple of 16,
// under key to out, on the scalar code of path p: for short inputs, such
// as an AEAD's few padded blocks, where a MAC's state and vector setup
// would cost more than the blocks.
func SumBlocks(out *[TagSize]byte, msg []byte, key *[32]byte, p Path) {
	if len(msg)%TagSize != 0 {
		panic("poly1305: SumBlocks of a partial block")
	}
	var c core
	c.init(key)
	blocksScalar(&c, p, msg)
	finalize(out, &c.h, &c.s)
}

// Verify reports, in constant time, whether mac is msg's tag under key.
func Verify(mac *[TagSize]byte, msg []byte, key *[32]byte) bool {
	var tag [TagSize]byte
	Sum(&tag, msg, key)
	return subtle.ConstantTimeCompare(tag[:], mac[:]) == 1
}
