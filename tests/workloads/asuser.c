// SPDX-License-Identifier: GPL-2.0
/*
 * asuser - run a command as another user, for tests of what needs root.
 *
 * usage: asuser UID COMMAND [ARGS]
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;

	if (argc < 3) {
		fprintf(stderr, "usage: asuser UID COMMAND [ARGS]\n");
		return 2;
	}
	uid = (uid_t)atoi(argv[1]);
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid)) {
		perror("asuser");
		return 1;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "asuser: cannot run %s: %s\n", argv[2], strerror(errno));
	return 127;
}
