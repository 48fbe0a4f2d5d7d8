#include <string.h>
#include <atspi/atspi.h>
#include "naive.h"

int nish_naive_init(void) {
	static int done = 0;
	static int status = 0;
	if (!done) {
		status = atspi_init();
		/* 1 means "already initialized", which is fine. */
		if (status == 1)
			status = 0;
		done = 1;
	}
	return status;
}

static void push(nish_naive_result *r, int depth, char *role, char *name) {
	if (r->len == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 256;
		r->elems = g_realloc(r->elems, sizeof(nish_naive_elem) * r->cap);
	}
	r->elems[r->len].depth = depth;
	r->elems[r->len].role = role;
	r->elems[r->len].name = name;
	r->len++;
}

static void walk(AtspiAccessible *node, int depth, nish_naive_result *out) {
	char *role = atspi_accessible_get_role_name(node, NULL);
	char *name = atspi_accessible_get_name(node, NULL);
	push(out, depth, role ? role : g_strdup(""), name ? name : g_strdup(""));
	int n = atspi_accessible_get_child_count(node, NULL);
	for (int i = 0; i < n; i++) {
		AtspiAccessible *child = atspi_accessible_get_child_at_index(node, i, NULL);
		if (child) {
			walk(child, depth + 1, out);
			g_object_unref(child);
		}
	}
}

int nish_naive_walk(int pid, const char *prefix, nish_naive_result *out) {
	memset(out, 0, sizeof(*out));
	AtspiAccessible *desktop = atspi_get_desktop(0);
	int found = -1;
	int apps = atspi_accessible_get_child_count(desktop, NULL);
	for (int i = 0; i < apps && found < 0; i++) {
		AtspiAccessible *app = atspi_accessible_get_child_at_index(desktop, i, NULL);
		if (!app)
			continue;
		/* Drop whatever libatspi cached so each walk asks the app. */
		atspi_accessible_clear_cache(app);
		if ((int)atspi_accessible_get_process_id(app, NULL) == pid) {
			int frames = atspi_accessible_get_child_count(app, NULL);
			for (int j = 0; j < frames && found < 0; j++) {
				AtspiAccessible *f = atspi_accessible_get_child_at_index(app, j, NULL);
				if (!f)
					continue;
				char *name = atspi_accessible_get_name(f, NULL);
				if (name && strncmp(name, prefix, strlen(prefix)) == 0) {
					walk(f, 0, out);
					found = 0;
				}
				g_free(name);
				g_object_unref(f);
			}
		}
		g_object_unref(app);
	}
	g_object_unref(desktop);
	return found;
}

void nish_naive_free(nish_naive_result *r) {
	for (int i = 0; i < r->len; i++) {
		g_free(r->elems[i].role);
		g_free(r->elems[i].name);
	}
	g_free(r->elems);
	memset(r, 0, sizeof(*r));
}
