// SPDX-License-Identifier: GPL-2.0
/*
 * text.c - text from the data, made safe for each output (see text.h).
 *
 * Task names are bytes: Linux keeps what prctl(PR_SET_NAME) was given,
 * cut at 15 bytes, possibly inside a UTF-8 sequence.  Valid UTF-8 is kept
 * as it is; what is not UTF-8, and what a terminal or a line-based reader
 * would act on, is escaped: in the table as \xHH (a backslash as \\), in
 * JSON as \u00XX for control characters and U+FFFD for each byte that is
 * not part of a valid sequence.
 */
#include <inttypes.h>
#include <string.h>

#include "text.h"

/*
 * ts_utf8_len - the length (1..4) of the valid UTF-8 sequence at s, its
 * code point in *cp; 0 when s does not start one (a stray continuation
 * byte, a cut or overlong sequence, a surrogate, beyond U+10FFFF).
 */
int ts_utf8_len(const char *s, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c = u[0], min;
	int n;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, c &= 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, c &= 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, c &= 0x07, min = 0x10000;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)	/* also stops at the string's end */
			return 0;
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* A control character: C0, DEL, C1 (a terminal acts on all of them). */
static int is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

/*
 * ts_text_safe - s for a line of the table or a message: printable UTF-8
 * kept, every byte of a control character or of what is not UTF-8 as
 * \xHH, a backslash as \\ (so that the escapes cannot be forged).  Cut to
 * fit buf (never inside an escape).  Returns buf.
 */
const char *ts_text_safe(char *buf, size_t len, const char *s)
{
	size_t o = 0;

	if (!len)
		return buf;
	for (; s && *s; ) {
		uint32_t cp;
		int n = ts_utf8_len(s, &cp);
		char esc[20];
		size_t k;

		if (n && !is_control(cp) && cp != '\\') {
			memcpy(esc, s, n);
			k = n;
		} else if (n && cp == '\\') {
			memcpy(esc, "\\\\", 2);
			k = 2;
			n = 1;
		} else {
			/* every byte of it: a C1 control is two bytes in UTF-8 */
			k = 0;
			if (!n)
				n = 1;
			for (int i = 0; i < n; i++)
				k += snprintf(esc + k, sizeof(esc) - k, "\\x%02x",
					      (unsigned char)s[i]);
		}
		if (o + k >= len)
			break;
		memcpy(buf + o, esc, k);
		o += k;
		s += n;
	}
	buf[o] = '\0';
	return buf;
}

/*
 * ts_json_string - s as a JSON string: valid UTF-8 kept as it is, ", \
 * and control characters (C0, DEL, C1) and U+2028/U+2029 (line ends to
 * JavaScript) \u-escaped; each byte that is not part of a valid sequence
 * becomes U+FFFD (written \ufffd).  NULL is "".
 */
void ts_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	while (s && *s) {
		uint32_t cp;
		int n = ts_utf8_len(s, &cp);

		if (!n) {
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", (int)cp);
		else if (is_control(cp) || cp == 0x2028 || cp == 0x2029)
			fprintf(f, "\\u%04x", (unsigned int)cp);
		else
			fwrite(s, 1, n, f);
		s += n;
	}
	fputc('"', f);
}

/*
 * ts_csv_field - s as one CSV field (RFC 4180): quoted when it holds a
 * comma, a double quote, a line end or starts or ends with a space; a
 * double quote inside doubled.
 */
void ts_csv_field(FILE *f, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!n)
		return;
	if (!strpbrk(s, ",\"\r\n") && s[0] != ' ' && s[n - 1] != ' ') {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* ts_text_dur - a duration for people: 1.234s, 5.678ms, 9.1us, 12ns */
const char *ts_text_dur(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, len, "%.3fs", ns / 1e9);
	else if (ns >= 1000000ULL)
		snprintf(buf, len, "%.3fms", ns / 1e6);
	else if (ns >= 1000ULL)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	return buf;
}

/*
 * ts_xml_text - s in an XML attribute value or text (JUnit): the markup
 * characters as entities.  Shared by check's and doctor's JUnit files.
 */
void ts_xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}
