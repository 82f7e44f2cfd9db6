package encfile

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/simdcrypt/simdcrypt/parallel"
)

// DefaultChunkSize is the unit of reading, parallel work and writing. A
// mebibyte keeps system calls and goroutine hand-offs rare next to the
// cipher work while bounding memory to a few dozen chunks.
const DefaultChunkSize = 1 << 20

// maxInFlight caps the chunks alive at once whatever -threads says, so that
// memory stays bounded on machines with many cores: each chunk holds an
// output buffer and, for a mapped file, its input pages, so about 2*16 MiB
// at most; 16 workers already outrun memory bandwidth.
const maxInFlight = 16

// chunk is one piece of the stream on its way from reader to writer.
type chunk struct {
	in      []byte // the input: buf[:n] when read, or part of mapping
	buf     []byte // the output; capacity chunk size + one block, for padding
	n       int    // bytes of data
	off     uint64 // offset of the chunk in the cipher stream (after any header)
	prev    [16]byte
	final   bool
	err     error
	done    chan struct{}
	mapping []byte // the input file mapping to release once processed
}

func (c *chunk) out() []byte { return c.buf[:c.n] }

var (
	errBadDecrypt = errors.New("bad decrypt (wrong key or password, or corrupt input)")
)

type pipeline struct {
	t         transform
	decrypt   bool
	blockLen  int // padding block length; 0 for none (stream modes)
	pad       bool
	iv        []byte
	chunkSize int
	threads   int
	noMap     bool          // read(2) even from regular files (tests cover both paths)
	consumed  *atomic.Int64 // input bytes read so far (progress bar); may be nil
}

type stats struct{ in, out int64 }

// run streams r through the transform into w, in order. It returns the
// bytes read and written. On error, whatever was written is incomplete
// and the caller discards it.
func (p *pipeline) run(r io.Reader, w io.Writer) (st stats, err error) {
	// A regular file is mapped chunk by chunk rather than read.
	var mapFile *os.File
	var mapStart, mapSize int64
	if f, ok := r.(*os.File); ok {
		growPipe(f)
	}
	if f, ok := r.(*os.File); ok && canMap && !p.noMap {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if pos, err := f.Seek(0, io.SeekCurrent); err == nil && pos <= fi.Size() {
				mapFile, mapStart, mapSize = f, pos, fi.Size()-pos
			}
		}
	}

	workers := 1
	if p.t.parallel {
		workers = max(1, p.threads)
	}
	if p.t.seekable != nil {
		// One goroutine takes the chunks in order and package parallel
		// spreads each over the threads: a chunk must be large enough to
		// give each thread a part (as many as maxInFlight, which bounds
		// the chunks the other modes keep in flight).
		p.chunkSize = max(p.chunkSize, min(p.threads, maxInFlight)*parallel.MinPartSize)
	}
	inFlight := min(max(2*workers+2, 4), maxInFlight)

	free := make(chan *chunk, inFlight+1)
	order := make(chan *chunk, inFlight)
	work := make(chan *chunk, inFlight)
	quit := make(chan struct{})
	allocated := 0
	// get returns an idle chunk, allocating until inFlight+1 exist (the
	// reader holds one back to learn whether the one before it is last).
	get := func() *chunk {
		select {
		case c := <-free:
			return c
		default:
		}
		if allocated < inFlight+1 {
			allocated++
			return &chunk{buf: make([]byte, p.chunkSize+16)}
		}
		select {
		case c := <-free:
			return c
		case <-quit:
			return nil
		}
	}

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A file that shrinks under its mapping faults: make that an
			// error for the chunk rather than a crash.
			debug.SetPanicOnFault(true)
			for c := range work {
				p.process(c)
				close(c.done)
			}
		}()
	}

	var readErr error
	inBytes := p.consumed
	if inBytes == nil {
		inBytes = new(atomic.Int64)
	}
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		defer close(order)
		defer close(work)
		defer func() {
			if r := recover(); r != nil {
				readErr = panicError(r)
			}
		}()
		debug.SetPanicOnFault(true)
		f := &feeder{p: p, order: order, work: work, quit: quit, put: func(c *chunk) { free <- c }}
		copy(f.prev[:], p.iv)
		if mapFile != nil {
			readErr = f.readMapped(mapFile, mapStart, mapSize, get, inBytes)
		} else {
			readErr = f.read(r, get, inBytes)
		}
	}()

	for c := range order {
		<-c.done
		err := c.err
		if err == nil {
			var n int
			n, err = w.Write(c.out())
			st.out += int64(n)
		}
		if err != nil {
			// Stop the reader and return at once: it may be blocked on
			// a pipe that never ends, and the caller discards the output.
			close(quit)
			st.in = inBytes.Load()
			return st, err
		}
		free <- c
	}
	<-readerDone
	wg.Wait()
	st.in = inBytes.Load()
	return st, readErr
}

// feeder hands chunks to the workers and the writer in stream order.
type feeder struct {
	p     *pipeline
	order chan<- *chunk
	work  chan<- *chunk
	quit  <-chan struct{}
	put   func(*chunk) // returns an unused chunk
	off   uint64
	prev  [16]byte // last input block so far: the next chunk's CBC chaining value
}

// send passes c on; it returns false when the run is being abandoned.
func (f *feeder) send(c *chunk, final bool) bool {
	c.final, c.off, c.prev, c.err = final, f.off, f.prev, nil
	c.done = make(chan struct{})
	if c.n >= 16 {
		copy(f.prev[:], c.in[c.n-16:c.n])
	}
	f.off += uint64(c.n)
	if final {
		if err := f.p.finish(c); err != nil {
			// No cipher work: fail in order, after what came before.
			c.err = err
			close(c.done)
			select {
			case f.order <- c:
			case <-f.quit:
			}
			return false
		}
	}
	select {
	case f.order <- c:
	case <-f.quit:
		c.release()
		return false
	}
	f.work <- c
	return true
}

// read fills chunks from r. It holds each full chunk until the next read
// shows whether more data follows, because only the last chunk is padded
// (encryption) or unpadded (decryption).
func (f *feeder) read(r io.Reader, get func() *chunk, total *atomic.Int64) error {
	size := f.p.chunkSize
	cur := get()
	if cur == nil {
		return nil
	}
	n, err := io.ReadFull(r, cur.buf[:size])
	total.Add(int64(n))
	for {
		cur.n, cur.in = n, cur.buf[:n]
		switch err {
		case io.EOF, io.ErrUnexpectedEOF:
			f.send(cur, true)
			return nil
		case nil:
		default:
			return err
		}
		next := get()
		if next == nil {
			return nil
		}
		n, err = io.ReadFull(r, next.buf[:size])
		total.Add(int64(n))
		if n == 0 && err == io.EOF {
			f.send(cur, true)
			return nil
		}
		if err != nil && err != io.ErrUnexpectedEOF {
			return err
		}
		if !f.send(cur, false) {
			return nil
		}
		cur = next
	}
}

// readMapped feeds the regular file fl from offset start, whose size was
// size when the run began. It maps every chunk while more than a chunk
// remains, then reads the rest with read(2) to the real end of the file:
// the last chunk needs a buffer anyway (for padding), files that grew are
// read whole, and files whose size says little (procfs, sysfs) or that
// cannot be mapped are read like pipes.
func (f *feeder) readMapped(fl *os.File, start, size int64, get func() *chunk, total *atomic.Int64) error {
	pos, end := start, start+size
	for end-pos > int64(f.p.chunkSize) {
		c := get()
		if c == nil {
			return nil
		}
		m, in, err := mapRange(fl, pos, f.p.chunkSize)
		if err != nil {
			f.put(c) // not mappable: read instead
			break
		}
		c.n, c.mapping, c.in = f.p.chunkSize, m, in
		total.Add(int64(c.n))
		if !f.send(c, false) {
			return nil
		}
		pos += int64(c.n)
	}
	if _, err := fl.Seek(pos, io.SeekStart); err != nil {
		return err
	}
	return f.read(fl, get, total)
}

// release unmaps the chunk's input, if mapped.
func (c *chunk) release() {
	if c.mapping != nil {
		unmap(c.mapping)
		c.mapping, c.in = nil, nil
	}
}

// panicError turns a recovered panic into an error line; a fault on the
// mapped input means the file shrank while being read.
func panicError(r any) error {
	if _, ok := r.(interface{ Addr() uintptr }); ok {
		return errors.New("error reading input: the file changed size while being read")
	}
	return fmt.Errorf("internal error: %v", r)
}

// finish checks and pads the last chunk before its cipher work.
func (p *pipeline) finish(c *chunk) error {
	if p.blockLen == 0 {
		return nil
	}
	if !p.pad {
		if c.n%p.blockLen != 0 {
			return fmt.Errorf("input is not a whole number of %d-byte blocks, as -nopad requires", p.blockLen)
		}
		return nil
	}
	if p.decrypt {
		if c.n == 0 || c.n%p.blockLen != 0 {
			return errBadDecrypt
		}
		return nil
	}
	// PKCS#7: 1 to blockLen bytes, each holding the count.
	k := p.blockLen - c.n%p.blockLen
	for i := range k {
		c.buf[c.n+i] = byte(k)
	}
	c.n += k
	c.in = c.buf[:c.n] // the final chunk is always in buf
	return nil
}

// process runs the cipher on one chunk and strips the padding of the last.
func (p *pipeline) process(c *chunk) {
	defer func() {
		if r := recover(); r != nil {
			c.err = panicError(r)
		}
	}()
	defer c.release()
	if p.t.seekable != nil {
		parallel.XORKeyStream(p.t.seekable, c.out(), c.in, c.off, p.threads)
	} else {
		p.t.crypt(c)
	}
	if c.final && p.decrypt && p.pad && p.blockLen > 0 {
		k, ok := checkPadding(c.buf[c.n-p.blockLen : c.n])
		if !ok {
			c.err = errBadDecrypt
			return
		}
		c.n -= k
	}
}

// checkPadding validates PKCS#7 padding on the last block without
// branching on the secret bytes, and returns the padding length.
func checkPadding(last []byte) (int, bool) {
	bl := len(last)
	k := int(last[bl-1])
	good := subtle.ConstantTimeLessOrEq(1, k) & subtle.ConstantTimeLessOrEq(k, bl)
	for i := range bl {
		// Bytes in the last k positions must equal k.
		inPad := subtle.ConstantTimeLessOrEq(bl-i, k)
		eq := subtle.ConstantTimeByteEq(last[i], byte(k))
		good &= eq | (inPad ^ 1)
	}
	return k, good == 1
}
