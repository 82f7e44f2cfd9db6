// Command blockapi generates the part of a 128-bit block cipher package's
// public API that aes and aria share word for word: BlockSize,
// KeySizeError, the NewCTR, NewCBCEncrypter and NewCBCDecrypter wrappers
// over internal/modes, and the dispatch table NewCipher reads (paths: the
// package's asmPaths, then its portable path built from newCTKernels).
// Each package keeps its own doc comment and NewCipher by hand; this file
// is the one place the rest is written, so that the two APIs cannot drift.
package main

import (
	"bytes"
	_ "embed"
	"flag"
	"go/format"
	"log"
	"os"
	"text/template"
)

// apiText is the template of the generated file; its fields are the flags.
//
//go:embed blockapi.go.tmpl
var apiText string

var api = template.Must(template.New("api").Parse(apiText))

func main() {
	var p struct{ Pkg, Title, Out string }
	flag.StringVar(&p.Pkg, "pkg", "", "package name, also the cipher's catalogue name (aes)")
	flag.StringVar(&p.Title, "title", "", "the cipher's name in prose (AES)")
	flag.StringVar(&p.Out, "out", "", "output file")
	flag.Parse()
	if p.Pkg == "" || p.Title == "" || p.Out == "" {
		log.Fatal("blockapi: -pkg, -title and -out are required")
	}
	var buf bytes.Buffer
	if err := api.Execute(&buf, p); err != nil {
		log.Fatal(err)
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(p.Out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
