package encfile

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// DefaultChunkSize is the unit of reading, parallel work and writing. A
// mebibyte keeps system calls and goroutine hand-offs rare next to the
// cipher work while bounding memory to a few dozen chunks.
const DefaultChunkSize = 1 << 20

// maxInFlight caps the chunks alive at once whatever -threads says, so that
// memory stays bounded (under 64 MiB resident) on machines with many cores.
const maxInFlight = 24

// chunk is one piece of the stream on its way from reader to writer.
type chunk struct {
	buf   []byte // capacity chunk size + one block, for padding
	n     int    // bytes of data in buf
	off   uint64 // offset of buf[0] in the cipher stream (after any header)
	prev  [16]byte
	final bool
	err   error
	done  chan struct{}
}

func (c *chunk) data() []byte { return c.buf[:c.n] }

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
	consumed  *atomic.Int64 // input bytes read so far (progress bar); may be nil
}

type stats struct{ in, out int64 }

// run streams r through the transform into w, in order. It returns the
// bytes read and written. On error, whatever was written is incomplete
// and the caller discards it.
func (p *pipeline) run(r io.Reader, w io.Writer) (st stats, err error) {
	workers := 1
	if p.t.parallel {
		workers = max(1, p.threads)
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
				readErr = fmt.Errorf("internal error: %v", r)
			}
		}()
		readErr = p.read(r, get, order, work, quit, inBytes)
	}()

	for c := range order {
		<-c.done
		err := c.err
		if err == nil {
			var n int
			n, err = w.Write(c.data())
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

// read fills chunks from r and hands them out in order. It holds each full
// chunk until the next read shows whether more data follows, because only
// the last chunk is padded (encryption) or unpadded (decryption).
func (p *pipeline) read(r io.Reader, get func() *chunk, order, work chan<- *chunk, quit <-chan struct{}, total *atomic.Int64) error {
	var off uint64
	prev := [16]byte{}
	copy(prev[:], p.iv)
	send := func(c *chunk, final bool) bool {
		c.final, c.off, c.prev, c.err = final, off, prev, nil
		c.done = make(chan struct{})
		if c.n >= 16 {
			copy(prev[:], c.buf[c.n-16:c.n])
		}
		off += uint64(c.n)
		if final {
			if err := p.finish(c); err != nil {
				// No cipher work: fail in order, after what came before.
				c.err = err
				close(c.done)
				select {
				case order <- c:
				case <-quit:
				}
				return false
			}
		}
		select {
		case order <- c:
		case <-quit:
			return false
		}
		work <- c
		return true
	}

	cur := get()
	if cur == nil {
		return nil
	}
	n, err := io.ReadFull(r, cur.buf[:p.chunkSize])
	total.Add(int64(n))
	for {
		cur.n = n
		switch err {
		case io.EOF, io.ErrUnexpectedEOF:
			send(cur, true)
			return nil
		case nil:
		default:
			return err
		}
		next := get()
		if next == nil {
			return nil
		}
		n, err = io.ReadFull(r, next.buf[:p.chunkSize])
		total.Add(int64(n))
		if n == 0 && err == io.EOF {
			send(cur, true)
			return nil
		}
		if err != nil && err != io.ErrUnexpectedEOF {
			return err
		}
		if !send(cur, false) {
			return nil
		}
		cur = next
	}
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
	return nil
}

// process runs the cipher on one chunk and strips the padding of the last.
func (p *pipeline) process(c *chunk) {
	defer func() {
		if r := recover(); r != nil {
			c.err = fmt.Errorf("internal error: %v", r)
		}
	}()
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
