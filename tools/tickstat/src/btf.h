/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btf.h - field offsets from the running kernel's BTF (/sys/kernel/btf/vmlinux).
 *
 * The probes read a task's pid or a process's tgid through pointers the
 * probed functions get: the offsets of those fields come from the kernel
 * that runs, never from a version number.  A small reader of the BTF
 * format (include/uapi/linux/btf.h): types, struct and union members
 * (anonymous ones looked through), enum values.
 */
#ifndef TICKSTAT_BTF_H
#define TICKSTAT_BTF_H

#include <stddef.h>
#include <stdint.h>

struct ts_btf;

struct ts_btf *ts_btf_load(const char *path, char *err, size_t errlen);
struct ts_btf *ts_btf_parse(const void *data, size_t size, char *err, size_t errlen);
void ts_btf_free(struct ts_btf *b);
int ts_btf_member(const struct ts_btf *b, const char *type, const char *member,
		  long *offset, uint32_t *member_type);
int ts_btf_elem_size(const struct ts_btf *b, uint32_t array_type, long *size);
int ts_btf_enum_value(const struct ts_btf *b, const char *name, long long *value);
int ts_btf_var_member(const struct ts_btf *b, const char *var, const char *member,
		      long *offset, long *size);
int ts_btf_member_size(const struct ts_btf *b, const char *type, const char *member, long *size);
int ts_btf_param_is_ptr_to(const struct ts_btf *b, const char *func, int idx, const char *type);

#endif
