#include <atspi/atspi.h>
#include "names.h"

int nish_role_count(void) { return ATSPI_ROLE_COUNT; }

char *nish_role_name(int role) {
	return atspi_role_get_name((AtspiRole)role);
}

int nish_state_count(void) { return ATSPI_STATE_LAST_DEFINED; }

char *nish_state_name(int state) {
	GEnumClass *klass = g_type_class_ref(ATSPI_TYPE_STATE_TYPE);
	GEnumValue *v = g_enum_get_value(klass, state);
	char *out = v ? g_strdup(v->value_nick) : NULL;
	g_type_class_unref(klass);
	return out;
}

void nish_free_name(char *s) { g_free(s); }
