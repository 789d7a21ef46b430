// libpq, PostgreSQL's C client (Debian libpq-dev): the PostGIS catalog store talks to the server through it.
#include <libpq-fe.h>
