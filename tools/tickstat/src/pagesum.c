// SPDX-License-Identifier: GPL-2.0
/*
 * pagesum.c - the sum of a recording's pages (pagesum.h).
 *
 * Why not CRC-32 any more: zlib's table-driven CRC-32 took about four
 * instructions a byte, 15500 a full page: a quarter of tickstat report's
 * instructions on a 64-CPU recording, and about as much of what each
 * event costs the recorder (docs/performance.md).  Fletcher's checksum
 * takes one load and two additions a 32-bit word.  It tells a changed,
 * missing or reordered word (b weighs each word by its place) as the end
 * marks need; it is not a defence against a forger, nor is CRC-32.
 */
#include <endian.h>
#include <string.h>
#include <zlib.h>

#include "pagesum.h"

#define FLETCHER_MOD	0xffffffffULL
/*
 * Words added between two reductions: a stays under 2^47 and b under 2^63,
 * whatever they held (less than 2^32 each after a reduction).
 */
#define FLETCHER_RUN	32768

/*
 * ts_fletcher64 - Fletcher's checksum of buf, carried on from sum (0 to
 * start): a and b summed over the little-endian 32-bit words of buf (its
 * last 1 to 3 bytes padded with zero bytes), modulo 2^32 - 1, returned as
 * b * 2^32 + a.  Summing pages one after the other gives the sum of their
 * words in a row (each page's used bytes are a multiple of 4).
 */
uint64_t ts_fletcher64(uint64_t sum, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t a = sum & 0xffffffff, b = sum >> 32;

	while (len >= 4) {
		size_t words = len / 4 < FLETCHER_RUN ? len / 4 : FLETCHER_RUN;

#pragma GCC unroll 8
		for (size_t i = 0; i < words; i++) {
			uint32_t w;

			memcpy(&w, p + 4 * i, 4);
			a += le32toh(w);
			b += a;
		}
		p += 4 * words;
		len -= 4 * words;
		a %= FLETCHER_MOD;
		b %= FLETCHER_MOD;
	}
	if (len) {
		uint32_t w = 0;

		memcpy(&w, p, len);
		a = (a + le32toh(w)) % FLETCHER_MOD;
		b = (b + a) % FLETCHER_MOD;
	}
	return b << 32 | a;
}

/* ts_page_sum - sum carried on over buf, of the kind the recording uses */
uint64_t ts_page_sum(enum ts_page_sum_kind kind, uint64_t sum, const void *buf, size_t len)
{
	if (kind == TS_SUM_FLETCHER64)
		return ts_fletcher64(sum, buf, len);
	return crc32((unsigned long)sum, buf, len);
}

/* ts_page_sum_name - the kind's name in messages */
const char *ts_page_sum_name(enum ts_page_sum_kind kind)
{
	return kind == TS_SUM_FLETCHER64 ? "Fletcher-64" : "CRC-32";
}

/* ts_page_sum_parse - page_sum='s value; -1 for one this tickstat does not know */
int ts_page_sum_parse(const char *name, enum ts_page_sum_kind *kind)
{
	if (strcmp(name, "fletcher64"))
		return -1;
	*kind = TS_SUM_FLETCHER64;
	return 0;
}
