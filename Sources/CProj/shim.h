// PROJ's public C API (proj.h) and its bundled copy of Karney's geodesic routines (geodesic.h).
#include <proj.h>
#include <geodesic.h>
