/* A reference walk of one window with libatspi's synchronous calls: one
 * D-Bus round trip per property, the way a naive client reads a tree.
 * native/atspi's tests compare its reader against it and its benchmark
 * measures against it. */
#ifndef NISH_NAIVEWALK_H
#define NISH_NAIVEWALK_H

typedef struct {
	int depth;
	char *role; /* libatspi's role name ("push button") */
	char *name;
} nish_naive_elem;

typedef struct {
	nish_naive_elem *elems;
	int len;
	int cap;
} nish_naive_result;

/* Connects libatspi (once per process; AT_SPI_BUS_ADDRESS decides the bus).
 * Returns 0 on success. */
int nish_naive_init(void);
/* Walks the first top-level child, whose name starts with prefix, of the
 * application with process id pid. Returns 0 on success, -1 when no such
 * window exists. The caller frees the result with nish_naive_free. */
int nish_naive_walk(int pid, const char *prefix, nish_naive_result *out);
void nish_naive_free(nish_naive_result *r);

#endif
