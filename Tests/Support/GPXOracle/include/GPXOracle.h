// The GPX differential tests' oracle: track points as libxml2's streaming reader sees them.
// (Kept in C so that libxml2's headers, which pull in ICU, never meet Foundation's in Swift.)
#ifndef GPX_ORACLE_H
#define GPX_ORACLE_H
#include <stddef.h>

typedef struct {
    char lat[64];   // the attribute's text ("" when absent)
    char lon[64];
    char ele[128];  // the first direct child <ele>'s text, its text and CDATA concatenated ("" when absent)
    char time[128]; // the same for <time>
    int has_ele;
    int has_time;
} oracle_point;

/// Parses `bytes` with libxml2 (no network, no entity substitution). Returns the number of
/// <trkpt> elements (any namespace), writing the first `cap` to `out`; -1 when libxml2 rejects
/// the document.
long oracle_track_points(const char *bytes, size_t n, oracle_point *out, size_t cap);
#endif
