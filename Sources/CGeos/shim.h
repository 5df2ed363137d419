// GEOS C API, reentrant (_r) functions only: the non-reentrant globals are hidden.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
