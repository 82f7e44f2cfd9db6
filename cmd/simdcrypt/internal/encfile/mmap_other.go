//go:build !linux

package encfile

import (
	"errors"
	"os"
)

func mapRange(f *os.File, pos int64, n int) (mapping, data []byte, err error) {
	return nil, nil, errors.New("no mmap on this system")
}

func unmap(m []byte) {}

const canMap = false

func growPipe(f *os.File) {}
