// SPDX-License-Identifier: GPL-2.0
/*
 * pagesum.c - the sum of a recording's pages (pagesum.h).
 *
 * Why not CRC-32 any more: zlib's table-driven CRC-32 took about four
 * instructions a byte, 15,900 a full page: a quarter of tickstat report's
 * instructions on a 64-CPU recording, and about as much of what each
 * event costs the recorder (docs/performance.md).  Fletcher's checksum
 * takes one load and two additions a 32-bit word.  With its sums kept
 * modulo 2^64 rather than 2^32 - 1 (where a word of all ones counts as a
 * word of zeros: the high half of every kernel address), any one changed
 * word changes a, and two words swapped change b; it is no defence against
 * a forger, nor was the CRC.
 */
#include <endian.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "pagesum.h"

#ifdef __SSE2__
/*
 * Four words at a time, in four lanes of 64-bit sums (SSE2: every x86-64
 * has it), for 1.75 instructions a word where one at a time took 3.4:
 * lane j sums the words at 4m + j (A_j) and A_j after each of them (B_j).
 * Over n = 4M words, the word at 4m + j adds M - m times to B_j, and n -
 * 4m - j times to Fletcher's b: each lane gives b 4 B_j - j A_j, besides
 * the n a of the words before.  Exact modulo 2^64, as the sums are.
 * Returns the words summed (a multiple of 4).
 */
static size_t fletcher_lanes(uint64_t *a, uint64_t *b, const unsigned char *p, size_t words)
{
	const __m128i zero = _mm_setzero_si128();
	__m128i a01 = zero, a23 = zero, b01 = zero, b23 = zero;
	size_t quads = words / 4;
	uint64_t la[4], lb[4];

#pragma GCC unroll 8
	for (size_t i = 0; i < quads; i++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * i));

		a01 = _mm_add_epi64(a01, _mm_unpacklo_epi32(v, zero));
		a23 = _mm_add_epi64(a23, _mm_unpackhi_epi32(v, zero));
		b01 = _mm_add_epi64(b01, a01);
		b23 = _mm_add_epi64(b23, a23);
	}
	_mm_storeu_si128((__m128i *)la, a01);
	_mm_storeu_si128((__m128i *)(la + 2), a23);
	_mm_storeu_si128((__m128i *)lb, b01);
	_mm_storeu_si128((__m128i *)(lb + 2), b23);
	*b += 4 * quads * *a;
	for (int j = 0; j < 4; j++) {
		*b += 4 * lb[j] - j * la[j];
		*a += la[j];
	}
	return 4 * quads;
}
#endif

/*
 * ts_fletcher128 - Fletcher's checksum of buf, carried on in s (zeroed to
 * start): a is the sum of buf's little-endian 32-bit words (its last 1 to
 * 3 bytes padded with zero bytes) and b the sum of a after each word, both
 * modulo 2^64.  Summing pages one after the other gives the sum of their
 * words in a row (each page's used bytes are a multiple of 4).
 */
void ts_fletcher128(struct ts_sum *s, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t a = s->a, b = s->b;
	size_t words = len / 4, i = 0;

#ifdef __SSE2__
	i = fletcher_lanes(&a, &b, p, words);
#endif
	for (; i < words; i++) {
		uint32_t w;

		memcpy(&w, p + 4 * i, 4);
		a += le32toh(w);
		b += a;
	}
	if (len % 4) {
		uint32_t w = 0;

		memcpy(&w, p + 4 * words, len % 4);
		a += le32toh(w);
		b += a;
	}
	s->a = a;
	s->b = b;
}

/* ts_sum_add - the sum carried on over buf, of the kind the recording uses */
void ts_sum_add(enum ts_sum_kind kind, struct ts_sum *s, const void *buf, size_t len)
{
	if (kind == TS_SUM_FLETCHER128)
		ts_fletcher128(s, buf, len);
	else
		s->a = crc32((unsigned long)s->a, buf, len);
}

/* ts_sum_text - as the pages mark writes it: b then a, 32 hex digits; 8 for a CRC-32 */
void ts_sum_text(enum ts_sum_kind kind, const struct ts_sum *s, char text[TS_SUM_TEXT])
{
	if (kind == TS_SUM_FLETCHER128)
		snprintf(text, TS_SUM_TEXT, "%016llx%016llx", (unsigned long long)s->b,
			 (unsigned long long)s->a);
	else
		snprintf(text, TS_SUM_TEXT, "%08llx", (unsigned long long)s->a);
}

static int hex_digits(const char *text, size_t n, uint64_t *v)
{
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		const char *d = strchr("0123456789abcdef", text[i]);

		if (!text[i] || !d)
			return -1;
		*v = *v << 4 | (uint64_t)(d - "0123456789abcdef");
	}
	return 0;
}

/* ts_sum_parse - a sum as ts_sum_text() writes it, exactly; 0, or -1 */
int ts_sum_parse(enum ts_sum_kind kind, const char *text, struct ts_sum *s)
{
	size_t n = kind == TS_SUM_FLETCHER128 ? 32 : 8;

	if (strlen(text) != n)
		return -1;
	*s = (struct ts_sum){ 0 };
	if (kind != TS_SUM_FLETCHER128)
		return hex_digits(text, 8, &s->a);
	return hex_digits(text, 16, &s->b) || hex_digits(text + 16, 16, &s->a) ? -1 : 0;
}

int ts_sum_same(const struct ts_sum *x, const struct ts_sum *y)
{
	return x->a == y->a && x->b == y->b;
}

/* ts_sum_name - the kind's name in messages */
const char *ts_sum_name(enum ts_sum_kind kind)
{
	return kind == TS_SUM_FLETCHER128 ? "Fletcher-128" : "CRC-32";
}

/* ts_sum_kind_parse - page_sum='s value; -1 for one this tickstat does not know */
int ts_sum_kind_parse(const char *name, enum ts_sum_kind *kind)
{
	if (strcmp(name, "fletcher128"))
		return -1;
	*kind = TS_SUM_FLETCHER128;
	return 0;
}
