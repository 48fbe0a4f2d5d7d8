/* Role and state names from libatspi's own tables. */
#ifndef NISH_ATSPI_NAMES_H
#define NISH_ATSPI_NAMES_H

/* The number of role values libatspi knows. */
int nish_role_count(void);
/* The name of a role ("push button"), newly allocated (free with
 * nish_free_name), or NULL for an unknown value. */
char *nish_role_name(int role);
/* One past the highest state value libatspi knows. */
int nish_state_count(void);
/* The nick of a state ("multi-line"), newly allocated (free with
 * nish_free_name), or NULL for an unknown value. */
char *nish_state_name(int state);
void nish_free_name(char *s);

#endif
