// The shim's functions are static inline in include/CTracePlatform.h; a C target needs a source.
#include "CTracePlatform.h"
