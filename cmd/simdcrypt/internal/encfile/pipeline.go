package encfile

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// DefaultChunkSize is the unit of reading, parallel work and writing. A
// mebibyte keeps system calls and goroutine hand-offs rare next to the
// cipher work while bounding memory to a few dozen chunks.
const DefaultChunkSize = 1 << 20

// maxInFlight caps the chunks alive at once whatever -threads says, so that
// memory stays bounded on machines with many cores: each chunk holds one
// buffer, so about 16 MiB at most; 16 workers already outrun memory
// bandwidth.
const maxInFlight = 16

// chunk is one piece of the stream on its way from reader to writer.
type chunk struct {
	in    []byte // the input, buf[:n]; nil until read when unread is set
	buf   []byte // input, then output in place; capacity chunk size + one block, for padding
	n     int    // bytes of data
	off   uint64 // offset of the chunk in the cipher stream (after any header)
	prev  [16]byte
	final bool
	err   error
	done  chan struct{}
	// unread marks a chunk of a regular input file that its worker reads
	// itself, n bytes from offset pos, so that reading (copying from the
	// page cache) runs on every worker rather than on the feeder alone.
	unread bool
	pos    int64
}

func (c *chunk) out() []byte { return c.buf[:c.n] }

var (
	errBadDecrypt = errors.New("bad decrypt (wrong key or password, or corrupt input)")
	errShrank     = errors.New("error reading input: the file changed size while being read")
)

type pipeline struct {
	t         transform
	decrypt   bool
	blockLen  int // padding block length; 0 for none (stream modes)
	pad       bool
	iv        []byte
	chunkSize int
	threads   int
	inOrder   bool          // read regular files in order on the feeder, as pipes are (tests cover both paths)
	consumed  *atomic.Int64 // input bytes read so far (progress bar); run makes one if nil

	file      *os.File // the regular input file unread chunks are read from
	fileStart int64    // its offset where the stream began: chunks there chain on the IV
}

type stats struct{ in, out int64 }

// run streams r through the transform into w, in order. It returns the
// bytes read and written. On error, whatever was written is incomplete
// and the caller discards it.
func (p *pipeline) run(r io.Reader, w io.Writer) (st stats, err error) {
	if f, ok := r.(*os.File); ok {
		growPipe(f)
	}
	workers := 1
	if p.t.parallel {
		workers = max(1, p.threads)
	}
	// The workers of a mode whose chunks are independent read a regular
	// file themselves, each its own chunks with pread, rather than taking
	// them from the feeder's one read(2) stream (or from a mapping, which
	// measured slower still: see positional).
	var posSize int64
	if f, ok := r.(*os.File); ok && p.t.parallel && !p.inOrder {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if pos, err := f.Seek(0, io.SeekCurrent); err == nil && pos <= fi.Size() {
				p.file, p.fileStart, posSize = f, pos, fi.Size()-pos
			}
		}
	}
	inFlight := min(max(2*workers+2, 4), maxInFlight)
	if p.consumed == nil {
		p.consumed = new(atomic.Int64)
	}

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
			for c := range work {
				p.process(c)
				close(c.done)
			}
		}()
	}

	var readErr error
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
		f := &feeder{p: p, order: order, work: work, quit: quit}
		copy(f.prev[:], p.iv)
		if p.file != nil {
			readErr = f.positional(posSize, get)
		} else {
			readErr = f.read(r, get)
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
			st.in = p.consumed.Load()
			return st, err
		}
		free <- c
	}
	<-readerDone
	wg.Wait()
	st.in = p.consumed.Load()
	return st, readErr
}

// feeder hands chunks to the workers and the writer in stream order.
type feeder struct {
	p     *pipeline
	order chan<- *chunk
	work  chan<- *chunk
	quit  <-chan struct{}
	off   uint64
	prev  [16]byte // last input block so far: the next chunk's CBC chaining value
}

// send passes c on; it returns false when the run is being abandoned.
func (f *feeder) send(c *chunk, final bool) bool {
	c.final, c.off, c.prev, c.err = final, f.off, f.prev, nil
	c.done = make(chan struct{})
	if c.n >= 16 && !c.unread {
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
		return false
	}
	f.work <- c
	return true
}

// read fills chunks from r. It holds each full chunk until the next read
// shows whether more data follows, because only the last chunk is padded
// (encryption) or unpadded (decryption).
func (f *feeder) read(r io.Reader, get func() *chunk) error {
	size := f.p.chunkSize
	cur := get()
	if cur == nil {
		return nil
	}
	n, err := io.ReadFull(r, cur.buf[:size])
	f.p.consumed.Add(int64(n))
	for {
		cur.n, cur.in, cur.unread = n, cur.buf[:n], false
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
		f.p.consumed.Add(int64(n))
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

// positional feeds the regular file p.file from the offset p.fileStart,
// whose size was size when the run began. While more than a chunk
// remains it hands out unread chunks, which the workers read with pread;
// then it reads the rest in order to the real end of the file: the last
// chunk is held back anyway (for padding), files that grew are read whole,
// and files whose size says little (procfs, sysfs) are read like pipes.
//
// Reading in the workers lets the copy from the page cache run on every
// core. Mapping the file instead, which saves that copy, measured 4x
// slower on a Zen 5 VM (1 GiB: 0.61 s mapped with MAP_POPULATE against
// 0.14 s with pread, one thread): faults, page-table set-up, unmapping,
// and the cipher's loads through 4 KiB pages cost more than the copy.
func (f *feeder) positional(size int64, get func() *chunk) error {
	fl := f.p.file
	pos, end := f.p.fileStart, f.p.fileStart+size
	for end-pos > int64(f.p.chunkSize) {
		c := get()
		if c == nil {
			return nil
		}
		c.n, c.in, c.unread, c.pos = f.p.chunkSize, nil, true, pos
		if !f.send(c, false) {
			return nil
		}
		pos += int64(c.n)
	}
	// The chaining value for what follows: the block before it.
	if err := f.p.chainValue(&f.prev, pos); err != nil {
		return err
	}
	if _, err := fl.Seek(pos, io.SeekStart); err != nil {
		return err
	}
	return f.read(fl, get)
}

// fill reads an unread chunk in its worker, with the ciphertext block
// before it when decrypting (the CBC chaining value).
func (p *pipeline) fill(c *chunk) error {
	if err := readFull(p.file, c.buf[:c.n], c.pos); err != nil {
		return err
	}
	p.consumed.Add(int64(c.n))
	c.in, c.unread = c.buf[:c.n], false
	return p.chainValue(&c.prev, c.pos)
}

// chainValue reads into prev the ciphertext block before offset pos of
// the input file, the CBC chaining value of what starts there, when
// decrypting and pos is past the stream's start (there the IV serves).
func (p *pipeline) chainValue(prev *[16]byte, pos int64) error {
	if p.decrypt && pos > p.fileStart {
		return readFull(p.file, prev[:], pos-16)
	}
	return nil
}

// readFull reads len(b) bytes at offset pos of f: where the file has
// fewer, it shrank since the run measured it.
func readFull(f *os.File, b []byte, pos int64) error {
	n, err := f.ReadAt(b, pos)
	if n == len(b) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = errShrank
	}
	return err
}

// panicError turns a recovered panic into an error line.
func panicError(r any) error { return fmt.Errorf("internal error: %v", r) }

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
	if c.unread {
		if err := p.fill(c); err != nil {
			c.err = err
			return
		}
	}
	p.t.crypt(c)
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
