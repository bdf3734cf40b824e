// SPDX-License-Identifier: GPL-2.0
/*
 * btf.c - struct member offsets and enum values from a kernel's BTF.
 *
 * The format (Documentation/bpf/btf.rst): a header, a type section of
 * variable-size records (type ids count from 1), a string section.  Only
 * what the probes need is read: a struct or union's members by name, with
 * anonymous members looked through, the element size of an array, and an
 * enum value by its name.  Every offset and length is checked against the
 * data: a corrupt blob is refused, never walked past its end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"

#define BTF_MAGIC	0xeB9F

enum {
	KIND_INT = 1, KIND_PTR, KIND_ARRAY, KIND_STRUCT, KIND_UNION, KIND_ENUM, KIND_FWD,
	KIND_TYPEDEF, KIND_VOLATILE, KIND_CONST, KIND_RESTRICT, KIND_FUNC, KIND_FUNC_PROTO,
	KIND_VAR, KIND_DATASEC, KIND_FLOAT, KIND_DECL_TAG, KIND_TYPE_TAG, KIND_ENUM64,
};

struct btf_type {
	uint32_t name_off;
	uint32_t info;		/* vlen: bits 0-15, kind: 24-28, kind_flag: 31 */
	uint32_t size_or_type;
};

struct ts_btf {
	unsigned char *data;
	size_t size;
	const unsigned char *types;	/* the type section */
	uint32_t types_len;
	const char *strs;
	uint32_t strs_len;
	uint32_t *index;		/* type id -> offset in the type section */
	uint32_t nr;			/* highest type id + 1 */
};

static int err_out(char *err, size_t len, const char *msg)
{
	if (err && len)
		snprintf(err, len, "%s", msg);
	return -1;
}

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static int kind_of(uint32_t info)
{
	return (info >> 24) & 0x1f;
}

static int vlen_of(uint32_t info)
{
	return info & 0xffff;
}

/* Bytes after struct btf_type that a record of this kind carries, or -1. */
static long extra_size(uint32_t info)
{
	long vlen = vlen_of(info);

	switch (kind_of(info)) {
	case KIND_INT:
		return 4;
	case KIND_PTR: case KIND_FWD: case KIND_TYPEDEF: case KIND_VOLATILE:
	case KIND_CONST: case KIND_RESTRICT: case KIND_FUNC: case KIND_FLOAT:
	case KIND_TYPE_TAG:
		return 0;
	case KIND_ARRAY:
		return 12;
	case KIND_STRUCT: case KIND_UNION: case KIND_DATASEC: case KIND_ENUM64:
		return 12 * vlen;
	case KIND_ENUM: case KIND_FUNC_PROTO:
		return 8 * vlen;
	case KIND_VAR: case KIND_DECL_TAG:
		return 4;
	}
	return -1;
}

static const struct btf_type *type_at(const struct ts_btf *b, uint32_t id, struct btf_type *t)
{
	const unsigned char *p;

	if (!id || id >= b->nr)
		return NULL;
	p = b->types + b->index[id];
	t->name_off = rd32(p);
	t->info = rd32(p + 4);
	t->size_or_type = rd32(p + 8);
	return t;
}

static const char *str_at(const struct ts_btf *b, uint32_t off)
{
	if (off >= b->strs_len)
		return "";
	return b->strs + off;
}

/* Index the type section: each record's offset, checked to fit. */
static int index_types(struct ts_btf *b, char *err, size_t errlen)
{
	uint32_t off = 0, cap = 1024;

	b->index = malloc(cap * sizeof(*b->index));
	if (!b->index)
		return err_out(err, errlen, "out of memory");
	b->nr = 1;
	while (off < b->types_len) {
		long extra;

		if (b->types_len - off < 12)
			return err_out(err, errlen, "corrupt BTF: a type record is cut");
		extra = extra_size(rd32(b->types + off + 4));
		if (extra < 0 || (uint64_t)b->types_len - off - 12 < (uint64_t)extra)
			return err_out(err, errlen, "corrupt BTF: a type of unknown kind or cut");
		if (b->nr == cap) {
			uint32_t *n = realloc(b->index, 2 * cap * sizeof(*n));

			if (!n)
				return err_out(err, errlen, "out of memory");
			b->index = n;
			cap *= 2;
		}
		b->index[b->nr++] = off;
		off += 12 + extra;
	}
	return 0;
}

/*
 * ts_btf_parse - read a BTF blob (the data is copied).  Returns the handle,
 * or NULL with a one-line reason in err.
 */
struct ts_btf *ts_btf_parse(const void *data, size_t size, char *err, size_t errlen)
{
	struct ts_btf *b = calloc(1, sizeof(*b));
	const unsigned char *p;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;

	if (!b || !(b->data = malloc(size ? size : 1))) {
		free(b);
		err_out(err, errlen, "out of memory");
		return NULL;
	}
	memcpy(b->data, data, size);
	b->size = size;
	p = b->data;
	if (size < 24 || (p[0] | p[1] << 8) != BTF_MAGIC || p[2] != 1) {
		err_out(err, errlen, size >= 2 && (p[1] | p[0] << 8) == BTF_MAGIC ?
			"BTF of the other byte order" : "not BTF version 1");
		goto fail;
	}
	hdr_len = rd32(p + 4);
	type_off = rd32(p + 8);
	type_len = rd32(p + 12);
	str_off = rd32(p + 16);
	str_len = rd32(p + 20);
	if (hdr_len < 24 || hdr_len > size ||
	    (uint64_t)type_off + type_len > size - hdr_len ||
	    (uint64_t)str_off + str_len > size - hdr_len || !str_len) {
		err_out(err, errlen, "corrupt BTF: sections outside the data");
		goto fail;
	}
	b->types = p + hdr_len + type_off;
	b->types_len = type_len;
	b->strs = (const char *)p + hdr_len + str_off;
	b->strs_len = str_len;
	if (b->strs[str_len - 1] != '\0') {
		err_out(err, errlen, "corrupt BTF: strings not terminated");
		goto fail;
	}
	if (index_types(b, err, errlen))
		goto fail;
	return b;
fail:
	ts_btf_free(b);
	return NULL;
}

/* ts_btf_load - read a BTF file, such as /sys/kernel/btf/vmlinux */
struct ts_btf *ts_btf_load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	struct ts_btf *b;

	if (!f) {
		if (err)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			unsigned char *nb = realloc(buf, cap = cap ? 2 * cap : 1 << 20);

			if (!nb) {
				free(buf);
				fclose(f);
				err_out(err, errlen, "out of memory");
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	fclose(f);
	b = ts_btf_parse(buf, len, err, errlen);
	free(buf);
	return b;
}

void ts_btf_free(struct ts_btf *b)
{
	if (!b)
		return;
	free(b->index);
	free(b->data);
	free(b);
}

/* Follow typedefs and qualifiers to the type itself. */
static uint32_t resolve(const struct ts_btf *b, uint32_t id)
{
	struct btf_type t;

	for (int depth = 0; depth < 32 && type_at(b, id, &t); depth++) {
		int k = kind_of(t.info);

		if (k != KIND_TYPEDEF && k != KIND_VOLATILE && k != KIND_CONST &&
		    k != KIND_RESTRICT && k != KIND_TYPE_TAG)
			return id;
		id = t.size_or_type;
	}
	return 0;
}

/* Look for member in the struct or union id, anonymous members included. */
static int find_member(const struct ts_btf *b, uint32_t id, const char *member, int depth,
		       long *offset, uint32_t *member_type)
{
	const unsigned char *m;
	struct btf_type t;

	if (depth > 8 || !type_at(b, id, &t))
		return -1;
	m = b->types + b->index[id] + 12;
	for (int i = 0; i < vlen_of(t.info); i++, m += 12) {
		const char *name = str_at(b, rd32(m));
		uint32_t mtype = rd32(m + 4), off = rd32(m + 8), bits = 0;
		struct btf_type mt;
		long sub;

		if (t.info >> 31) {		/* kind_flag: bitfield size in the top byte */
			bits = off >> 24;
			off &= 0xffffff;
		}
		if (!strcmp(name, member)) {
			if (bits || off % 8)
				return -1;	/* a bitfield: no byte offset */
			*offset = off / 8;
			*member_type = mtype;
			return 0;
		}
		if (name[0] || !type_at(b, resolve(b, mtype), &mt) ||
		    (kind_of(mt.info) != KIND_STRUCT && kind_of(mt.info) != KIND_UNION))
			continue;
		if (!find_member(b, resolve(b, mtype), member, depth + 1, &sub, member_type) &&
		    !(off % 8)) {
			*offset = off / 8 + sub;
			return 0;
		}
	}
	return -1;
}

/*
 * ts_btf_member - the byte offset of member in struct or union type (by
 * name), and the member's type id.  Returns 0, or -1 when either is
 * absent or the member is a bitfield.
 */
int ts_btf_member(const struct ts_btf *b, const char *type, const char *member,
		  long *offset, uint32_t *member_type)
{
	struct btf_type t;

	for (uint32_t id = 1; id < b->nr; id++) {
		type_at(b, id, &t);
		if ((kind_of(t.info) != KIND_STRUCT && kind_of(t.info) != KIND_UNION) ||
		    !vlen_of(t.info) || strcmp(str_at(b, t.name_off), type))
			continue;
		return find_member(b, id, member, 0, offset, member_type);
	}
	return -1;
}

static int type_size(const struct ts_btf *b, uint32_t id, long *size, int depth)
{
	struct btf_type t;
	long elem;

	id = resolve(b, id);
	if (depth > 8 || !type_at(b, id, &t))
		return -1;
	switch (kind_of(t.info)) {
	case KIND_PTR:
		*size = sizeof(long);	/* the kernel's word: tickstat runs on it */
		return 0;
	case KIND_INT: case KIND_STRUCT: case KIND_UNION: case KIND_ENUM: case KIND_ENUM64:
	case KIND_FLOAT:
		*size = t.size_or_type;
		return 0;
	case KIND_ARRAY:
		if (type_size(b, rd32(b->types + b->index[id] + 12), &elem, depth + 1))
			return -1;
		*size = elem * rd32(b->types + b->index[id] + 20);
		return 0;
	}
	return -1;
}

/* ts_btf_elem_size - the size of an element of the array type id; 0 or -1 */
int ts_btf_elem_size(const struct ts_btf *b, uint32_t array_type, long *size)
{
	struct btf_type t;
	uint32_t id = resolve(b, array_type);

	if (!type_at(b, id, &t) || kind_of(t.info) != KIND_ARRAY)
		return -1;
	return type_size(b, rd32(b->types + b->index[id] + 12), size, 0);
}

/* ts_btf_enum_value - the value of the enumerator name (C: unique); 0 or -1 */
int ts_btf_enum_value(const struct ts_btf *b, const char *name, long long *value)
{
	struct btf_type t;

	for (uint32_t id = 1; id < b->nr; id++) {
		const unsigned char *e;
		int k;

		type_at(b, id, &t);
		k = kind_of(t.info);
		if (k != KIND_ENUM && k != KIND_ENUM64)
			continue;
		e = b->types + b->index[id] + 12;
		for (int i = 0; i < vlen_of(t.info); i++, e += k == KIND_ENUM ? 8 : 12) {
			if (strcmp(str_at(b, rd32(e)), name))
				continue;
			if (k == KIND_ENUM)
				*value = (int32_t)rd32(e + 4);
			else
				*value = (long long)((uint64_t)rd32(e + 8) << 32 | rd32(e + 4));
			return 0;
		}
	}
	return -1;
}

/* The type id of the variable name (a VAR record; per-CPU ones too), or 0. */
static uint32_t var_type(const struct ts_btf *b, const char *name)
{
	struct btf_type t;

	for (uint32_t id = 1; id < b->nr; id++) {
		type_at(b, id, &t);
		if (kind_of(t.info) == KIND_VAR && !strcmp(str_at(b, t.name_off), name))
			return t.size_or_type;
	}
	return 0;
}

/*
 * ts_btf_var_member - where member lies in the variable var (its type may
 * be a typedef of an anonymous struct, as irq_cpustat_t), and its size;
 * member NULL: the variable itself, at 0.  Returns 0, or -1 when absent.
 */
int ts_btf_var_member(const struct ts_btf *b, const char *var, const char *member,
		      long *offset, long *size)
{
	uint32_t id = resolve(b, var_type(b, var)), mtype = id;
	struct btf_type t;

	if (!id || !type_at(b, id, &t))
		return -1;
	*offset = 0;
	if (member) {
		if ((kind_of(t.info) != KIND_STRUCT && kind_of(t.info) != KIND_UNION) ||
		    find_member(b, id, member, 0, offset, &mtype))
			return -1;
	}
	return type_size(b, mtype, size, 0);
}

/* ts_btf_member_size - the size of member in struct or union type; 0 or -1 */
int ts_btf_member_size(const struct ts_btf *b, const char *type, const char *member, long *size)
{
	uint32_t mtype;
	long off;

	return ts_btf_member(b, type, member, &off, &mtype) ? -1 : type_size(b, mtype, size, 0);
}

/*
 * ts_btf_param_is_ptr_to - is parameter idx (from 0) of the function func
 * a pointer to struct type?  1 yes, 0 no or unknown (no FUNC record: the
 * compiler changed how the function is called, or BTF left it out).
 */
int ts_btf_param_is_ptr_to(const struct ts_btf *b, const char *func, int idx, const char *type)
{
	struct btf_type t, proto, pt;

	for (uint32_t id = 1; id < b->nr; id++) {
		const unsigned char *param;
		uint32_t ptype;

		type_at(b, id, &t);
		if (kind_of(t.info) != KIND_FUNC || strcmp(str_at(b, t.name_off), func))
			continue;
		if (!type_at(b, t.size_or_type, &proto) || kind_of(proto.info) != KIND_FUNC_PROTO ||
		    idx >= vlen_of(proto.info))
			return 0;
		param = b->types + b->index[t.size_or_type] + 12 + 8 * idx;
		ptype = resolve(b, rd32(param + 4));
		if (!type_at(b, ptype, &pt) || kind_of(pt.info) != KIND_PTR)
			return 0;
		ptype = resolve(b, pt.size_or_type);
		return type_at(b, ptype, &pt) && kind_of(pt.info) == KIND_STRUCT &&
		       !strcmp(str_at(b, pt.name_off), type);
	}
	return 0;
}
