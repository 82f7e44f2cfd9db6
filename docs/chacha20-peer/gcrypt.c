/* Times libgcrypt's ChaCha20 for docs/chacha20-limits.md, with the same
 * estimator as chacha20-peer/main.go: thread CPU time of 21 slices of about
 * 4 MiB of calls each (in place, 64-byte aligned buffer), the median slice.
 *
 *   cc -O2 -o gcrypt gcrypt.c -lgcrypt
 *   ./gcrypt mhz                   core clock (dependent-chain estimate)
 *   ./gcrypt avx2|ssse3 SIZE...    rows "gcrypt-avx2 SIZE NS_PER_BYTE"
 *
 * ssse3 disables libgcrypt's intel-avx2 hardware feature before it
 * initialises, so its dispatcher takes the 4-block SSSE3 code.
 * libgcrypt 1.10 has no AVX-512 ChaCha20 (1.11 added one). */
#define _GNU_SOURCE
#include <gcrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SLICES = 21, SLICE_BYTES = 4 << 20 };

static double thread_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The clock as bench-slope --cpu-mhz auto estimates it: a chain of
 * dependent one-cycle ALU operations (32 per iteration), median of 15 runs
 * of about 0.3 ms. */
static double clock_mhz(void) {
	unsigned long x = 1, a = 0x9e3779b97f4a7c15ul, b = 0xbf58476d1ce4e5b9ul;
	double runs[15];
	const long iters = 1 << 15;
	for (int r = 0; r < 15; r++) {
		double t0 = thread_ns();
		for (long i = 0; i < iters; i++)
			__asm__ volatile(".rept 16\n\taddq %1, %0\n\txorq %2, %0\n\t.endr"
			                 : "+r"(x) : "r"(a), "r"(b));
		runs[r] = iters * 32.0 / (thread_ns() - t0) * 1e3;
	}
	qsort(runs, 15, sizeof runs[0], by_value);
	return runs[7];
}

int main(int argc, char **argv) {
	if (argc == 2 && strcmp(argv[1], "mhz") == 0) {
		printf("%.0f\n", clock_mhz());
		return 0;
	}
	if (argc < 3 || (strcmp(argv[1], "avx2") && strcmp(argv[1], "ssse3"))) {
		fprintf(stderr, "usage: %s mhz | avx2|ssse3 size...\n", argv[0]);
		return 2;
	}
	if (strcmp(argv[1], "ssse3") == 0)
		gcry_control(GCRYCTL_DISABLE_HWF, "intel-avx2", NULL);
	if (!gcry_check_version(GCRYPT_VERSION))
		return 1;
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);

	unsigned char key[32] = {0}, nonce[12] = {0};
	size_t most = 64;
	for (int i = 2; i < argc; i++) {
		size_t n = strtoul(argv[i], NULL, 0);
		if (n > most)
			most = n;
	}
	unsigned char *buf = aligned_alloc(64, (most + 63) & ~(size_t)63);
	memset(buf, 0, most);
	for (int i = 2; i < argc; i++) {
		size_t n = strtoul(argv[i], NULL, 0);
		gcry_cipher_hd_t h;
		if (n == 0 || gcry_cipher_open(&h, GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_STREAM, 0) ||
		    gcry_cipher_setkey(h, key, sizeof key) || gcry_cipher_setiv(h, nonce, sizeof nonce))
			return 1;
		long calls = n < SLICE_BYTES ? SLICE_BYTES / n : 1;
		double slice[SLICES];
		for (int k = -1; k < SLICES; k++) { /* k = -1: warm-up */
			double t0 = thread_ns();
			for (long c = 0; c < calls; c++)
				gcry_cipher_encrypt(h, buf, n, NULL, 0);
			if (k >= 0)
				slice[k] = (thread_ns() - t0) / ((double)calls * n);
		}
		qsort(slice, SLICES, sizeof slice[0], by_value);
		printf("gcrypt-%s %zu %.5f\n", argv[1], n, slice[SLICES / 2]);
		gcry_cipher_close(h);
	}
	return 0;
}
