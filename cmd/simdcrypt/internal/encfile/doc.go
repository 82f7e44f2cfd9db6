// Package encfile is `simdcrypt enc`: file and stream encryption that
// reads and writes what `openssl enc` does, with openssl's flags, running
// this module's cipher kernels on several cores.
//
// # Formats
//
// Ciphers are OpenSSL's names: aes-{128,192,256}-{ecb,cbc,ctr},
// aria-{128,192,256}-{ecb,cbc,ctr}, chacha20, and the aliases aes128 and
// so on (CBC). Each block cipher family is one entry in families; ChaCha20
// takes OpenSSL's 16-byte IV, a 32-bit little-endian block counter then
// the 12-byte nonce, and carries counter overflow into the first nonce
// word as OpenSSL does.
//
// A password (-pass, -k, -kfile, or asked on the terminal when there is
// neither a password nor -K) gives key and IV by PBKDF2-HMAC (-pbkdf2,
// or -iter, which implies it) or, without either, by OpenSSL's legacy
// EVP_BytesToKey with one iteration, printing openssl's deprecation
// warning: files made that way by older scripts still decrypt. The digest
// is -md (sha256 default; md5, sha1, sha224, sha384, sha512). A random salt
// is written as "Salted__" + 8 bytes and read back on decryption; -S gives
// the salt instead and, as in openssl 3.0, then no header is written or
// expected; -nosalt uses none.
//
// ECB and CBC use PKCS#7 padding unless -nopad, and then the input must be
// whole 16-byte blocks.
//
// # Where this differs from openssl enc
//
//   - -K, -iv and -S must have exactly the cipher's length in hex digits.
//     openssl pads short values with zero bytes and drops excess with only
//     a warning, which turns a typing mistake into a different key; here it
//     is an error that names the length needed.
//   - -a/-base64, -none, engines and providers are not supported; -bufsize
//     is accepted and ignored. `-cipher NAME` is not accepted, as in
//     openssl 3.0.
//   - Errors are one line on stderr; exit status 2 for usage mistakes, 1
//     for failed runs (openssl uses 1 for both).
//   - An empty -in or -out is an error, not standard input or output; a
//     closed standard output or input (`>&-`) is an error, not an empty run.
//   - -out never leaves a partial file: see Output files below. A dangling
//     symbolic link as -out is refused (openssl creates its target).
//
// # Streaming
//
// Input is cut into 1 MiB chunks. CTR, ECB, CBC decryption and ChaCha20
// process chunks on -threads goroutines (each chunk's counter or chaining
// value follows from its offset or the ciphertext block before it); CBC
// encryption is serial. Output is written in order and is the same for any
// thread count. At most a few dozen chunks are alive at once, so memory is
// bounded whatever the stream length. The last chunk is held back until the
// input ends, to pad it or check and strip its padding.
//
// When the chunks are independent (every mode but CBC encryption), each
// worker reads its own chunks of a regular input file with pread, so the
// copy from the page cache runs on every thread, not on one reader; that
// is done for as long as more than a chunk of the file's starting size
// remains, and the rest is read in order to the real end of file, so files
// that grow, or whose size means nothing (procfs), come out whole. A file
// that shrinks under the chunks the workers read fails the run. (Mapping
// the file instead saves the copy but measured four times slower: see
// feeder.positional.)
//
// # Output files
//
// An output path that is a regular file, or does not exist, is written to a
// temporary file in the same directory and renamed over it only on
// success; a failed or interrupted run leaves no partial file and the
// existing one untouched. Before any work (and before the password
// prompt) the run checks everything that could stop that rename, and
// refuses with one line if something would:
//
//   - A symbolic link to an existing file is followed: the file it points
//     to is replaced and the link kept. A dangling link is refused, as cp
//     refuses it: creating its target would write wherever the link points.
//   - An existing file must be writable by the caller, as writing it in
//     place (openssl) would need, though renaming gives it a new inode, so
//     other hard links keep the old content.
//   - The replacement gets the existing file's owner, group and mode
//     (setuid, setgid and sticky bits included; not ACLs or extended
//     attributes). A caller who could not give it that owner or group
//     (only root may give files away) is refused rather than taking the
//     file over.
//   - In a sticky directory (/tmp) only the owner of the file or of the
//     directory may replace a file; anyone else is refused then, not with
//     EPERM at the rename after all the work.
//
// The directory must be writable, for the temporary file. That file is
// named .NAME.simdcrypt.DIGITS.tmp, has mode 0600 until it is complete
// (it holds plaintext when decrypting), and is locked (flock) while its
// run lives. A signal (SIGINT, SIGTERM, SIGHUP) removes it; a run killed
// outright (SIGKILL, a crash) leaves it, and the next run to the same
// output removes such files when they are the caller's and no live run
// holds them (where flock exists: Linux, macOS, the BSDs). On success
// the file gets its final mode, is flushed to disk (fsync), renamed over
// the output, and the directory is flushed, so after a power loss the
// path holds either the old file or the whole new one.
//
// Outputs that are not regular files (devices, pipes, terminals) are
// written directly. Reading and writing one file is refused.
//
// # Standard streams and resources
//
// A standard output or input the process was started without (`>&-`,
// `<&-`) is an error when the run needs it: the Go runtime puts /dev/null
// opened read-write there, which would swallow the output and report
// success. Redirecting to /dev/null on purpose works (or -out /dev/null).
//
// -threads is at most 8 goroutines per CPU; more cannot run at once and
// only cost memory. Ctrl-C at the password prompt restores the terminal's
// echo before the process ends.
package encfile
