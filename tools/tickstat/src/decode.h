/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decode.h - turn raw trace records into struct ts_event.
 *
 * Every source (live, recording, trace.dat) hands its records to the same
 * decoder, built once from the event formats the source carries.
 */
#ifndef TICKSTAT_DECODE_H
#define TICKSTAT_DECODE_H

#include <traceevent/event-parse.h>

#include "analysis.h"
#include "event.h"
#include "probedec.h"

enum ts_field_id {
	F_STOP_SUCCESS, F_STOP_DEP, F_STOP_GLOBAL, F_STOP_CPU, F_STOP_TASK,
	F_STOP_PROCESS,
	F_RETAIN_REASON, F_RETAIN_DELTA,
	F_RESTART_STOPPED, F_RESTART_IDLE, F_RESTART_CAUSE,
	F_DEP_DEP, F_DEP_SCOPE, F_DEP_TARGET, F_DEP_SCHED, F_DEP_CALLER,
	F_CLR_DEP, F_CLR_SCOPE, F_CLR_TARGET, F_CLR_SCHED, F_CLR_CALLER,
	F_DSCHED_TARGET, F_DSCHED_SCHED, F_DSCHED_PREV, F_DSCHED_CALLER,
	F_SW_PREV_COMM, F_SW_PREV_PID, F_SW_NEXT_COMM, F_SW_NEXT_PID,
	F_HRT_FUNCTION, F_HRT_TIMER, F_HRTX_TIMER,
	F_WORK_WORK, F_WORK_FUNCTION, F_WORKX_WORK,
	F_QUEUE_FUNCTION, F_QUEUE_CPU,
	F_TIMER_TIMER, F_TIMER_FUNCTION, F_TIMERX_TIMER,
	F_IRQ_IRQ, F_IRQ_NAME, F_IRQX_IRQ,
	F_SOFTIRQ_VEC, F_SOFTIRQX_VEC,
	/* irq_vectors: each kind's entry and exit has its own vector field */
	F_VECTOR,
	F_VECTOR_LAST = F_VECTOR + 2 * TS_NR_VECTORS - 1,
	F_TSTART_TIMER, F_TSTART_FUNCTION, F_TSTART_FLAGS,
	F_HSTART_TIMER, F_HSTART_FUNCTION,
	F_PRINT_BUF,
	F_PID,
	F_COMMON_FLAGS,
	TS_NR_FIELDS,
};

struct ts_decoder {
	struct tep_handle *tep;
	int id_stop, id_retain, id_restart, id_dep_set, id_dep_clear, id_dep_sched;
	int id_switch, id_hrtimer, id_print;
	/* the causes' events (enum ts_cause_type order), entry and exit */
	int id_cause[TS_NR_CAUSE_TYPES][2];
	int id_queue;
	int id_vector[TS_NR_VECTORS][2];	/* irq_vectors: NAME_entry, NAME_exit */
	int id_arm[2];			/* timer_start, hrtimer_start */
	struct tep_format_field *field[TS_NR_FIELDS];
	/* every record's event id, where every format has it (struct trace_entry) */
	struct tep_format_field *common_type;
	/*
	 * Where every record has its id and pid, and where sched_switch has
	 * its fields (most of a recording's records), as the formats put
	 * them: checked once here, read at each record without a check a
	 * field.  0: read field by field (read_field()).
	 */
	int type_at, pid_at;		/* offset + 1, inside a record's first 8 bytes */
	int sw_end;			/* the bytes a switch's fields take */
	int sw_prev_pid, sw_next_pid, sw_prev_comm, sw_next_comm;
	uint64_t tick_fn;		/* the tick's hrtimer function, 0 unknown */
	uint64_t bad_records;		/* records too short for their format */
	struct ts_probedec probes;	/* tickstat's kprobe events, on a stock kernel */
	/*
	 * What each event type id is to the decoder (enum route in decode.c):
	 * one lookup per record, whatever the number of events of interest,
	 * where a compare per event was 30 for a record of none (the most
	 * common kind in a trace-cmd file).  64 KiB.
	 */
	uint8_t route[TS_EVENT_IDS];
};

int ts_decoder_init(struct ts_decoder *d, struct tep_handle *tep, struct ts_caps *caps);
int ts_decode(struct ts_decoder *d, struct tep_record *rec, struct ts_event *ev);
/*
 * the same in two steps, for a caller that looks at the type first: one
 * read of it a record.  The type must be the record's own: another one
 * decodes the wrong fields (bounds-checked, so never out of the record).
 */
int ts_decode_type(struct ts_decoder *d, struct tep_record *rec);
int ts_decode_typed(struct ts_decoder *d, struct tep_record *rec, int type, struct ts_event *ev);
int ts_decode_print(struct ts_decoder *d, struct tep_record *rec, int type, const char **text,
		    size_t *len);

#endif
