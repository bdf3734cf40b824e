/* SPDX-License-Identifier: GPL-2.0 */
/*
 * httpd.h - a minimal HTTP/1.1 server for one document, /metrics.
 *
 * Single-threaded and non-blocking: the caller polls the descriptors it
 * hands out along with its own work, so a slow or stuck client never holds
 * up the monitor.  Each connection carries one request and is closed after
 * the answer; clients, request sizes and connection lifetimes are bounded.
 */
#ifndef TICKSTAT_HTTPD_H
#define TICKSTAT_HTTPD_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#define TS_HTTPD_MAX_CLIENTS	16
#define TS_HTTPD_MAX_FDS	(TS_HTTPD_MAX_CLIENTS + 1)
#define TS_HTTPD_DEFAULT_HOST	"127.0.0.1"

struct ts_httpd;

struct ts_httpd *ts_httpd_open(const char *spec, char *err, size_t errlen);
const char *ts_httpd_address(const struct ts_httpd *h);
int ts_httpd_pollfds(struct ts_httpd *h, struct pollfd *fds);
void ts_httpd_serve(struct ts_httpd *h, const struct pollfd *fds, int nfds, const char *body,
		    size_t len);
uint64_t ts_httpd_requests(const struct ts_httpd *h);
void ts_httpd_close(struct ts_httpd *h);

#endif
