// SPDX-License-Identifier: GPL-2.0
/*
 * httpd.c - a minimal HTTP/1.1 server for /metrics (see httpd.h).
 *
 * GET or HEAD /metrics answers the latest exposition; / says where the
 * metrics are; anything else is 404, 405 or 400.  A request whose header
 * does not fit in 8 KiB is refused (431).  A connection that has not been
 * answered and closed within 10 s is dropped, and at most 16 are open: the
 * listening socket is not polled while all are taken, so extra clients
 * wait in the kernel's backlog instead of spinning this loop.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "httpd.h"
#include "promtext.h"
#include "util.h"

#define REQUEST_MAX		8192
#define CLIENT_TIMEOUT_NS	(10 * 1000000000ULL)
#define BACKLOG			64	/* connections waiting while all clients are taken */

struct client {
	int fd;
	int writing;
	char in[REQUEST_MAX];
	size_t in_len;
	char *out;
	size_t out_len;
	size_t out_off;
	uint64_t deadline;
};

struct ts_httpd {
	int listen_fd;
	char address[96];
	struct client clients[TS_HTTPD_MAX_CLIENTS];
	int nr_clients;
	uint64_t requests;
};

/*
 * Split "PORT", ":PORT", "HOST:PORT" or "[HOST]:PORT"; the host defaults
 * to 127.0.0.1.  Returns 0, or -1 when the text is none of these.
 */
static int split_spec(const char *spec, char *host, size_t host_len, char *port, size_t port_len)
{
	const char *colon, *p;
	size_t n;

	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (!close || close[1] != ':')
			return -1;
		n = close - spec - 1;
		if (!n || n >= host_len)
			return -1;
		memcpy(host, spec + 1, n);
		host[n] = '\0';
		colon = close + 1;
	} else {
		colon = strrchr(spec, ':');
		n = colon ? (size_t)(colon - spec) : 0;
		if (n >= host_len)
			return -1;
		memcpy(host, spec, n);
		host[n] = '\0';
		if (!n)
			snprintf(host, host_len, "%s", TS_HTTPD_DEFAULT_HOST);
		if (colon && strchr(host, ':'))
			return -1;	/* an IPv6 address needs brackets */
	}
	p = colon ? colon + 1 : spec;
	if (!*p || strlen(p) >= port_len || strlen(p) > 5)
		return -1;
	for (const char *d = p; *d; d++)
		if (*d < '0' || *d > '9')
			return -1;
	if (atoi(p) > 65535)
		return -1;
	snprintf(port, port_len, "%s", p);
	return 0;
}

/*
 * ts_httpd_open - listen on spec ("ADDR:PORT", "[ADDR6]:PORT", ":PORT" or
 * "PORT"; numeric addresses only; port 0 picks a free one, which
 * ts_httpd_address() tells).  Returns the server, or NULL with the reason
 * in err.
 */
struct ts_httpd *ts_httpd_open(const char *spec, char *err, size_t errlen)
{
	struct addrinfo hints = { 0 }, *ai = NULL;
	struct sockaddr_storage bound;
	socklen_t bound_len = sizeof(bound);
	char host[64], port[8];
	struct ts_httpd *h;
	int fd, one = 1, rc;

	if (split_spec(spec, host, sizeof(host), port, sizeof(port))) {
		snprintf(err, errlen, "--listen: '%s' is not [ADDR]:PORT (a numeric IPv4 address, or an IPv6 one in brackets, and a port; 0 picks a free one)",
			 spec);
		return NULL;
	}
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV;
	rc = getaddrinfo(host, port, &hints, &ai);
	if (rc) {
		snprintf(err, errlen, "--listen: '%s': %s", spec, gai_strerror(rc));
		return NULL;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, BACKLOG)) {
		snprintf(err, errlen, "--listen: cannot listen on %s: %s", spec, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return NULL;
	}
	freeaddrinfo(ai);
	if (getsockname(fd, (struct sockaddr *)&bound, &bound_len) ||
	    getnameinfo((struct sockaddr *)&bound, bound_len, NULL, 0, port, sizeof(port),
			NI_NUMERICSERV)) {
		snprintf(err, errlen, "--listen: %s: %s", spec, strerror(errno));
		close(fd);
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	h->listen_fd = fd;
	snprintf(h->address, sizeof(h->address), strchr(host, ':') ? "[%s]:%s" : "%s:%s", host,
		 port);
	return h;
}

/* ts_httpd_address - the address listened on, as HOST:PORT */
const char *ts_httpd_address(const struct ts_httpd *h)
{
	return h->address;
}

/* ts_httpd_requests - requests answered so far */
uint64_t ts_httpd_requests(const struct ts_httpd *h)
{
	return h->requests;
}

/*
 * ts_httpd_pollfds - the descriptors to poll, in fds (room for
 * TS_HTTPD_MAX_FDS).  Returns how many.
 */
int ts_httpd_pollfds(struct ts_httpd *h, struct pollfd *fds)
{
	int n = 0;

	if (h->nr_clients < TS_HTTPD_MAX_CLIENTS)
		fds[n++] = (struct pollfd){ .fd = h->listen_fd, .events = POLLIN };
	for (int i = 0; i < h->nr_clients; i++)
		fds[n++] = (struct pollfd){ .fd = h->clients[i].fd,
					    .events = h->clients[i].writing ? POLLOUT : POLLIN };
	return n;
}

static void drop(struct ts_httpd *h, int i)
{
	close(h->clients[i].fd);
	free(h->clients[i].out);
	h->clients[i] = h->clients[--h->nr_clients];
}

static void accept_clients(struct ts_httpd *h)
{
	while (h->nr_clients < TS_HTTPD_MAX_CLIENTS) {
		int fd = accept4(h->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct client *c;

		if (fd < 0)
			return;
		c = &h->clients[h->nr_clients++];
		memset(c, 0, sizeof(*c));
		c->fd = fd;
		c->deadline = ts_now_ns() + CLIENT_TIMEOUT_NS;
	}
}

/* Prepare the answer: status, headers and (unless HEAD) the body. */
static void respond(struct client *c, int status, const char *reason, const char *type,
		    const char *body, size_t len, int with_body, const char *extra)
{
	char head[512];
	int n;

	n = snprintf(head, sizeof(head),
		     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%sConnection: close\r\n\r\n",
		     status, reason, type, len, extra);
	if (n < 0 || n >= (int)sizeof(head))
		n = 0;
	c->out = malloc(n + (with_body ? len : 0));
	c->out_len = 0;
	c->out_off = 0;
	c->writing = 1;
	if (!c->out)
		return;
	memcpy(c->out, head, n);
	if (with_body)
		memcpy(c->out + n, body, len);
	c->out_len = n + (with_body ? len : 0);
}

static void answer(struct ts_httpd *h, struct client *c, const char *body, size_t len)
{
	static const char index_page[] = "tickstat monitor: the metrics are at /metrics\n";
	static const char text[] = "text/plain; charset=utf-8";
	char method[16], path[256], version[16];
	int head;

	c->in[c->in_len < REQUEST_MAX ? c->in_len : REQUEST_MAX - 1] = '\0';
	if (sscanf(c->in, "%15s %255s %15s", method, path, version) != 3 ||
	    strncmp(version, "HTTP/1.", 7)) {
		respond(c, 400, "Bad Request", text, "bad request\n", 12, 1, "");
		return;
	}
	path[strcspn(path, "?#")] = '\0';
	head = !strcmp(method, "HEAD");
	if (!head && strcmp(method, "GET")) {
		respond(c, 405, "Method Not Allowed", text, "GET or HEAD only\n", 17, 1,
			"Allow: GET, HEAD\r\n");
		return;
	}
	h->requests++;
	if (!strcmp(path, "/metrics"))
		respond(c, 200, "OK", TS_PROM_CONTENT_TYPE, body, len, !head, "");
	else if (!strcmp(path, "/"))
		respond(c, 200, "OK", text, index_page, sizeof(index_page) - 1, !head, "");
	else
		respond(c, 404, "Not Found", text, "not found: try /metrics\n", 24, !head, "");
}

/* Read what the client sent; answer once the header is complete. */
static int client_read(struct ts_httpd *h, struct client *c, const char *body, size_t len)
{
	ssize_t n = read(c->fd, c->in + c->in_len, REQUEST_MAX - 1 - c->in_len);

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		return -1;
	if (n < 0)
		return 0;
	c->in_len += n;
	c->in[c->in_len] = '\0';
	if (strstr(c->in, "\r\n\r\n") || strstr(c->in, "\n\n"))
		answer(h, c, body, len);
	else if (c->in_len >= REQUEST_MAX - 1)
		respond(c, 431, "Request Header Fields Too Large", "text/plain; charset=utf-8",
			"request too large\n", 18, 1, "");
	return 0;
}

/* Send what is left; 1 when all of it went. */
static int client_write(struct client *c)
{
	while (c->out_off < c->out_len) {
		ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		c->out_off += n;
	}
	return 1;
}

/*
 * ts_httpd_serve - handle what poll() reported on the descriptors of
 * ts_httpd_pollfds(); body is the document /metrics answers.
 */
void ts_httpd_serve(struct ts_httpd *h, const struct pollfd *fds, int nfds, const char *body,
		    size_t len)
{
	uint64_t now = ts_now_ns();

	for (int k = 0; k < nfds; k++) {
		if (!fds[k].revents)
			continue;
		if (fds[k].fd == h->listen_fd) {
			accept_clients(h);
			continue;
		}
		for (int i = 0; i < h->nr_clients; i++) {
			struct client *c = &h->clients[i];
			int done = 0;

			if (c->fd != fds[k].fd)
				continue;
			if (!c->writing && (fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
				done = client_read(h, c, body, len);
			if (!done && c->writing)
				done = client_write(c);
			if (done)
				drop(h, i);
			break;
		}
	}
	for (int i = h->nr_clients - 1; i >= 0; i--)
		if (now > h->clients[i].deadline)
			drop(h, i);
}

/* ts_httpd_close - close every connection and the listening socket */
void ts_httpd_close(struct ts_httpd *h)
{
	if (!h)
		return;
	while (h->nr_clients)
		drop(h, h->nr_clients - 1);
	close(h->listen_fd);
	free(h);
}
