// Reference kernels in C, built in the same run as TraceKit's so the benchmark can print ratios.
// They are the "peer" implementations PERFORMANCE.md compares against: plain libm haversine,
// raw PROJ geod_inverse, raw PROJ proj_trans_generic.
#ifndef CBASELINES_H
#define CBASELINES_H
#include <stddef.h>

/// Haversine on the 6,371,008.8 m sphere with libm sin/cos/asin/sqrt, degrees in, metres out.
void cb_haversine(const double *lat1, const double *lon1, const double *lat2, const double *lon2,
                  double *out, size_t n);

/// The vectorised-polynomial peer: haversine on the same sphere with AVX2 + FMA, four pairs per
/// step, branch-free polynomials (three sines and an asin series, like TraceKit's fast kernel) and
/// libm for pairs beyond 29° or near the poles. Returns 0 (and computes nothing) when the CPU lacks
/// AVX2 or FMA, 1 otherwise.
int cb_haversine_avx2(const double *lat1, const double *lon1, const double *lat2, const double *lon2,
                      double *out, size_t n);

/// Calls PROJ's geod_inverse (WGS84) for each pair, writing s12; returns the sum of azi1 so the
/// azimuth work is consumed too.
double cb_geod_inverse(const double *lat1, const double *lon1, const double *lat2, const double *lon2,
                       double *s12, size_t n);

/// An opaque PROJ transformation made with its own context, network off, axis order normalised.
void *cb_proj_create(const char *source, const char *target);
/// Transforms n interleaved (x, y) points in place with proj_trans_generic; returns PROJ's count.
size_t cb_proj_trans(void *handle, double *xy, size_t n);
void cb_proj_destroy(void *handle);


/// The libxml2 SAX2 peer: parses a GPX file with libxml2's SAX2 interface, reading every trkpt's
/// lat/lon (strtod) and the text of ele, time and hdop; returns the number of points, -1 on error.
long cb_libxml2_sax_gpx(const char *path, double *checksum);

/// The libxml2 SAX2 peer for KML: parses a gx:Track KML with libxml2's SAX2 interface, reading
/// the text of every <when> and the three numbers (strtod) of every <gx:coord> (matched by the
/// extension's namespace URI); returns the number of coords, -1 on error.
long cb_libxml2_sax_kml(const char *path, double *checksum);

/// The C strtod peer for CSV: reads a "lat,lon,time,accuracy" CSV with fgets + strtod; returns
/// rows read, -1 on error.
long cb_strtod_csv(const char *path, double *checksum);

/// The C strtok peer for NMEA: reads an RMC + GGA log with fgets, verifies each sentence's `*hh`
/// checksum, splits it with strtok and reads time, latitude, longitude (ddmm.mmmm), speed and the
/// RMC date (strtod / digits) from RMC and time and altitude from GGA. Returns the RMC epochs read,
/// -1 on error (a bad checksum included). strtok merges empty fields, so it reads only logs whose
/// fields up to the last one used are all present, as the generated benchmark file's are.
long cb_strtok_nmea(const char *path, double *checksum);

/// The floor for the CSV case (not a peer: it checks nothing and reads only that file's exact row
/// shape): read(2) blocks, the same eight-bytes-at-once number method as TraceKit, times from
/// their digits, columns of 1,024 rows. Returns rows read, -1 when a row is not of that shape.
long cb_minimal_csv(const char *path, double *checksum);

/// The dense peer of TraceKit's Kalman filter: a textbook 4×4 constant-velocity filter (state
/// east, north, v_east, v_north; F, Q, P as full 4×4 matrices; 2×2 innovation inverse) with the
/// same gate, over n fixes (times t, positions e/n, variances var). Returns a checksum.
double cb_kalman_dense(const double *t, const double *e, const double *n_, const double *var, size_t n,
                       double q, double v0, double gate);

/// The dense peer of TraceKit's RTS smoother: the forward pass above storing every state (xs, 4
/// per point) and covariance (Ps, 16 per point), then the textbook backward pass with a 4×4
/// Gauss–Jordan inverse of each predicted covariance. Returns a checksum.
double cb_rts_dense(const double *t, const double *e, const double *n_, const double *var, size_t n,
                    double q, double v0, double gate, double *xs, double *Ps);

#endif
