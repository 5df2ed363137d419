#include "CBaselines.h"
#include <geodesic.h>
#include <math.h>
#include <proj.h>
#include <stdlib.h>
#include <immintrin.h>

void cb_haversine(const double *lat1, const double *lon1, const double *lat2, const double *lon2,
                  double *out, size_t n) {
    const double k = M_PI / 180.0, r = 6371008.8;
    for (size_t i = 0; i < n; i++) {
        double sdlat = sin((lat2[i] - lat1[i]) * k * 0.5);
        double sdlon = sin((lon2[i] - lon1[i]) * k * 0.5);
        double a = sdlat * sdlat + cos(lat1[i] * k) * cos(lat2[i] * k) * sdlon * sdlon;
        out[i] = 2.0 * r * asin(sqrt(a < 1.0 ? a : 1.0));
    }
}

double cb_geod_inverse(const double *lat1, const double *lon1, const double *lat2, const double *lon2,
                       double *s12, size_t n) {
    struct geod_geodesic g;
    geod_init(&g, 6378137.0, 1 / 298.257223563);
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        double azi1, azi2;
        geod_inverse(&g, lat1[i], lon1[i], lat2[i], lon2[i], &s12[i], &azi1, &azi2);
        sum += azi1 + azi2;
    }
    return sum;
}

struct cb_proj { PJ_CONTEXT *ctx; PJ *pj; };

void *cb_proj_create(const char *source, const char *target) {
    struct cb_proj *h = malloc(sizeof *h);
    if (!h) return NULL;
    h->ctx = proj_context_create();
    proj_context_set_enable_network(h->ctx, 0);
    PJ *raw = proj_create_crs_to_crs(h->ctx, source, target, NULL);
    h->pj = raw ? proj_normalize_for_visualization(h->ctx, raw) : NULL;
    proj_destroy(raw);
    if (!h->pj) { proj_context_destroy(h->ctx); free(h); return NULL; }
    return h;
}

size_t cb_proj_trans(void *handle, double *xy, size_t n) {
    struct cb_proj *h = handle;
    return proj_trans_generic(h->pj, PJ_FWD, xy, 2 * sizeof(double), n, xy + 1, 2 * sizeof(double), n,
                              NULL, 0, 0, NULL, 0, 0);
}

void cb_proj_destroy(void *handle) {
    struct cb_proj *h = handle;
    if (!h) return;
    proj_destroy(h->pj);
    proj_context_destroy(h->ctx);
    free(h);
}

static double cb_haversine_one(double lat1, double lon1, double lat2, double lon2) {
    double out;
    cb_haversine(&lat1, &lon1, &lat2, &lon2, &out, 1);
    return out;
}

__attribute__((target("avx2,fma")))
static inline __m256d poly_sin_small(__m256d x) {  /* |x| <= pi/12 */
    __m256d t = _mm256_mul_pd(x, x);
    __m256d p = _mm256_set1_pd(-2.5019108723477484e-08);
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(2.7557293784420913e-06));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(-0.00019841269832229883));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(0.008333333333331881));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(-0.16666666666666666));
    return _mm256_fmadd_pd(_mm256_mul_pd(x, t), p, x);
}

__attribute__((target("avx2,fma")))
static inline __m256d poly_sin(__m256d x) {  /* |x| <= pi/2 */
    __m256d t = _mm256_mul_pd(x, x);
    __m256d p = _mm256_set1_pd(2.7215821926997076e-15);
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(-7.643027273612204e-13));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(1.6058940907182887e-10));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(-2.5052106891168703e-08));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(2.755731921123654e-06));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(-0.0001984126984120872));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(0.008333333333333186));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(-0.16666666666666666));
    return _mm256_fmadd_pd(_mm256_mul_pd(x, t), p, x);
}

__attribute__((target("avx2,fma")))
static inline __m256d poly_asin_over_x(__m256d t) {  /* t = h^2 <= 1/16 */
    __m256d p = _mm256_set1_pd(0.014733877761763685);
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(0.013573906735622495));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(0.017378058745320276));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(0.022371214177153265));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(0.030381965082411498));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(0.04464285689033437));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(0.07500000000154518));
    p = _mm256_fmadd_pd(p, t, _mm256_set1_pd(0.16666666666666302));
    return _mm256_fmadd_pd(t, p, _mm256_set1_pd(1.0));
}

__attribute__((target("avx2,fma")))
static void cb_haversine_avx2_kernel(const double *lat1, const double *lon1, const double *lat2,
                                     const double *lon2, double *out, size_t n) {
    const __m256d k2 = _mm256_set1_pd(M_PI / 360.0), k = _mm256_set1_pd(M_PI / 180.0);
    const __m256d r2 = _mm256_set1_pd(2.0 * 6371008.8), sign = _mm256_set1_pd(-0.0);
    const __m256d c180 = _mm256_set1_pd(180.0), c360 = _mm256_set1_pd(360.0), zero = _mm256_setzero_pd();
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256d a1 = _mm256_loadu_pd(lat1 + i), o1 = _mm256_loadu_pd(lon1 + i);
        __m256d a2 = _mm256_loadu_pd(lat2 + i), o2 = _mm256_loadu_pd(lon2 + i);
        __m256d dlat = _mm256_sub_pd(a2, a1), d = _mm256_sub_pd(o2, o1);
        __m256d hi = _mm256_and_pd(_mm256_cmp_pd(d, c180, _CMP_GT_OQ), c360);
        __m256d lo = _mm256_and_pd(_mm256_cmp_pd(d, _mm256_sub_pd(zero, c180), _CMP_LT_OQ), c360);
        __m256d dlon = _mm256_add_pd(_mm256_sub_pd(d, hi), lo);
        __m256d s = poly_sin_small(_mm256_mul_pd(dlat, k2)), t = poly_sin_small(_mm256_mul_pd(dlon, k2));
        __m256d twice = _mm256_andnot_pd(sign, _mm256_add_pd(a1, a2));
        __m256d c = poly_sin(_mm256_mul_pd(_mm256_fnmadd_pd(twice, _mm256_set1_pd(0.5), _mm256_set1_pd(90.0)), k));
        __m256d s2 = _mm256_mul_pd(s, s);
        __m256d a = _mm256_fmadd_pd(_mm256_fmsub_pd(c, c, s2), _mm256_mul_pd(t, t), s2);
        __m256d dist = _mm256_mul_pd(r2, _mm256_mul_pd(_mm256_sqrt_pd(a), poly_asin_over_x(a)));
        __m256d big = _mm256_max_pd(_mm256_andnot_pd(sign, dlat), _mm256_andnot_pd(sign, dlon));
        __m256d inside = _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(big, _mm256_set1_pd(30.0), _CMP_LE_OQ),
                                                     _mm256_cmp_pd(a, _mm256_set1_pd(0.0625), _CMP_LE_OQ)),
                                       _mm256_cmp_pd(twice, _mm256_set1_pd(160.0), _CMP_LE_OQ));
        _mm256_storeu_pd(out + i, dist);
        int mask = _mm256_movemask_pd(inside);
        if (mask != 0xF) {
            for (int j = 0; j < 4; j++)
                if (!(mask & (1 << j))) out[i + j] = cb_haversine_one(lat1[i + j], lon1[i + j], lat2[i + j], lon2[i + j]);
        }
    }
    for (; i < n; i++) out[i] = cb_haversine_one(lat1[i], lon1[i], lat2[i], lon2[i]);
}

int cb_haversine_avx2(const double *lat1, const double *lon1, const double *lat2, const double *lon2,
                      double *out, size_t n) {
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return 0;
    cb_haversine_avx2_kernel(lat1, lon1, lat2, lon2, out, n);
    return 1;
}

#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <stdio.h>
#include <string.h>

struct sax_state { long points; double sum; int field; char text[256]; size_t len; };

static void sax_start(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri, int nns,
                      const xmlChar **ns, int nattr, int ndef, const xmlChar **attrs) {
    (void)prefix; (void)uri; (void)nns; (void)ns; (void)ndef;
    struct sax_state *s = ctx;
    if (strcmp((const char *)local, "trkpt") == 0) {
        s->points++;
        for (int i = 0; i < nattr; i++) {
            const xmlChar **a = attrs + 5 * i;  /* localname, prefix, URI, value, end */
            char buf[64];
            size_t n = (size_t)(a[4] - a[3]);
            if (n >= sizeof buf) n = sizeof buf - 1;
            memcpy(buf, a[3], n);
            buf[n] = 0;
            s->sum += strtod(buf, NULL);
        }
    } else if (strcmp((const char *)local, "ele") == 0 || strcmp((const char *)local, "hdop") == 0) {
        s->field = 1; s->len = 0;
    } else if (strcmp((const char *)local, "time") == 0) {
        s->field = 2; s->len = 0;
    }
}

static void sax_end(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri) {
    (void)local; (void)prefix; (void)uri;
    struct sax_state *s = ctx;
    if (s->field) {
        s->text[s->len] = 0;
        if (s->field == 1) s->sum += strtod(s->text, NULL); else s->sum += (double)s->len;
        s->field = 0;
    }
}

static void sax_chars(void *ctx, const xmlChar *ch, int len) {
    struct sax_state *s = ctx;
    if (!s->field) return;
    if (s->len + (size_t)len >= sizeof s->text) len = (int)(sizeof s->text - 1 - s->len);
    memcpy(s->text + s->len, ch, (size_t)len);
    s->len += (size_t)len;
}

/* Runs libxml2's SAX2 parser over `path` with these element callbacks and sax_chars. */
static long sax_run(const char *path, startElementNsSAX2Func start, endElementNsSAX2Func end, double *checksum) {
    xmlSAXHandler h;
    memset(&h, 0, sizeof h);
    h.initialized = XML_SAX2_MAGIC;
    h.startElementNs = start;
    h.endElementNs = end;
    h.characters = sax_chars;
    struct sax_state s;
    memset(&s, 0, sizeof s);
    if (xmlSAXUserParseFile(&h, &s, path) != 0) return -1;
    *checksum = s.sum;
    return s.points;
}

long cb_libxml2_sax_gpx(const char *path, double *checksum) {
    return sax_run(path, sax_start, sax_end, checksum);
}

/* The KML gx:Track peer: the GPX peer's pattern and state (points counts the coords), reading the
   text of every <when> (its length, as the GPX peer does for <time>) and every <gx:coord> (three
   numbers with strtod), matched by local name and, for coord, the Google extension's namespace URI. */
static void kml_start(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri, int nns,
                      const xmlChar **ns, int nattr, int ndef, const xmlChar **attrs) {
    (void)prefix; (void)nns; (void)ns; (void)nattr; (void)ndef; (void)attrs;
    struct sax_state *s = ctx;
    if (strcmp((const char *)local, "when") == 0) {
        s->field = 2; s->len = 0;
    } else if (strcmp((const char *)local, "coord") == 0 && uri &&
               strcmp((const char *)uri, "http://www.google.com/kml/ext/2.2") == 0) {
        s->field = 1; s->len = 0;
    }
}

static void kml_end(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri) {
    (void)local; (void)prefix; (void)uri;
    struct sax_state *s = ctx;
    if (!s->field) return;
    s->text[s->len] = 0;
    if (s->field == 1) {
        char *p = s->text, *end;
        for (int k = 0; k < 3; k++) { s->sum += strtod(p, &end); p = end; }
        s->points++;
    } else {
        s->sum += (double)s->len;
    }
    s->field = 0;
}

long cb_libxml2_sax_kml(const char *path, double *checksum) {
    return sax_run(path, kml_start, kml_end, checksum);
}

long cb_strtod_csv(const char *path, double *checksum) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[1024];
    long rows = 0;
    double sum = 0;
    if (!fgets(line, sizeof line, f)) { fclose(f); return 0; }  /* header */
    while (fgets(line, sizeof line, f)) {
        char *p = line, *end;
        sum += strtod(p, &end);           /* lat */
        p = end + 1; sum += strtod(p, &end); /* lon */
        p = strchr(end + 1, ',');          /* skip the time */
        if (p) sum += strtod(p + 1, NULL); /* accuracy */
        rows++;
    }
    fclose(f);
    *checksum = sum;
    return rows;
}

/* ---- The floor for CSV: what the simplest C parser of exactly this file's rows costs. ----
 * Not a peer (it checks nothing: every row must be "d+.d+,d+.d+,YYYY-MM-DDThh:mm:ssZ,d+.d+\n"
 * with at most 8 digits per number, else it stops and returns -1), but a lower bound for any
 * reader of the same file on this machine: read(2) in 1 MiB blocks, each number by the same
 * method TraceKit uses (eight bytes at once: digit count, digit value by three multiplications,
 * one correctly rounded division by a power of ten), the time from its digits with the day's
 * count reused while the date repeats, and the values stored in columns of 1,024 rows that are
 * summed as a batch is full (as TraceKit's batches are). */
#include <fcntl.h>
#include <unistd.h>
#include <stdint.h>

static inline uint64_t cb_load8(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline int cb_digit_count(uint64_t c) {
    const uint64_t high = 0xF0F0F0F0F0F0F0F0ull, threes = 0x3030303030303030ull;
    uint64_t bad = ((c & high) ^ threes) | (((c + 0x0606060606060606ull) & high) ^ threes);
    return bad ? __builtin_ctzll(bad) >> 3 : 8;
}
static inline uint64_t cb_digits_value(uint64_t c, int k) {  /* 1 <= k <= 8 */
    uint64_t v = (c << (64 - 8 * k)) & 0x0F0F0F0F0F0F0F0Full;
    v = (v * (1 + (10 << 8))) >> 8;
    v = ((v & 0x00FF00FF00FF00FFull) * (1 + (100 << 16))) >> 16;
    return ((v & 0x0000FFFF0000FFFFull) * (1 + (10000ull << 32))) >> 32;
}
static const double cb_tens[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
/* "d+.d+" (at most 8 digits) at p, followed by `end`: its length, or -1. */
static inline int cb_number(const unsigned char *p, unsigned char end, double *out) {
    uint64_t c0 = cb_load8(p);
    int k0 = cb_digit_count(c0);
    if (k0 < 1 || k0 > 7 || p[k0] != '.') return -1;
    uint64_t c1 = cb_load8(p + k0 + 1);
    int k1 = cb_digit_count(c1);
    if (k1 < 1 || k0 + k1 > 8 || p[k0 + 1 + k1] != end) return -1;
    uint64_t merged = (c0 & ((1ull << (8 * k0)) - 1)) | (c1 << (8 * k0));
    *out = (double)cb_digits_value(merged, k0 + k1) / cb_tens[k1];
    return k0 + 1 + k1;
}
static int64_t cb_days_from_civil(int64_t y, int m, int d) {  /* days since 1970-01-01 */
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

long cb_minimal_csv(const char *path, double *checksum) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    enum { block = 1 << 20, batch = 1024 };
    unsigned char *buf = malloc(block + 64);
    double lat[batch], lon[batch], acc[batch];
    int64_t t[batch];
    size_t len = 0, pos = 0;
    long rows = 0, failed = 0;
    int header = 1, filled = 0, eof = 0;
    uint64_t lastDate = 0;  /* never a date's bytes */
    int64_t dayNanos = 0;
    double sum = 0;
    while (!failed) {
        memmove(buf, buf + pos, len - pos);
        len -= pos;
        pos = 0;
        if (!eof) {
            ssize_t r = read(fd, buf + len, block - len);
            if (r < 0) { failed = 1; break; }
            if (r == 0) eof = 1;
            len += (size_t)r;
        }
        memset(buf + len, 0, 64);
        if (header) {
            unsigned char *nl = memchr(buf, '\n', len);
            if (!nl) { failed = 1; break; }
            pos = (size_t)(nl - buf) + 1;
            header = 0;
        }
        /* Whole rows only: a row is under 64 bytes. */
        while (pos < len && (eof || len - pos >= 64)) {
            const unsigned char *p = buf + pos;
            int n;
            if ((n = cb_number(p, ',', &lat[filled])) < 0) { failed = 1; break; }
            p += n + 1;
            if ((n = cb_number(p, ',', &lon[filled])) < 0) { failed = 1; break; }
            p += n + 1;
            uint64_t date = cb_load8(p + 2);  /* "24-05-01": the date's last eight bytes */
            if (date != lastDate) {
                int y = (p[0] - '0') * 1000 + (p[1] - '0') * 100 + (p[2] - '0') * 10 + (p[3] - '0');
                int mo = (p[5] - '0') * 10 + (p[6] - '0'), d = (p[8] - '0') * 10 + (p[9] - '0');
                dayNanos = cb_days_from_civil(y, mo, d) * 86400 * 1000000000LL;
                lastDate = date;
            }
            if (p[10] != 'T' || p[19] != 'Z' || p[20] != ',') { failed = 1; break; }
            int64_t seconds = ((p[11] - '0') * 10 + (p[12] - '0')) * 3600 + ((p[14] - '0') * 10 + (p[15] - '0')) * 60
                + (p[17] - '0') * 10 + (p[18] - '0');
            t[filled] = dayNanos + seconds * 1000000000LL;
            p += 21;
            if ((n = cb_number(p, '\n', &acc[filled])) < 0) { failed = 1; break; }
            p += n + 1;
            pos = (size_t)(p - buf);
            rows++;
            if (++filled == batch) {
                for (int i = 0; i < batch; i++) sum += lat[i] + acc[i] + (double)t[i] * 1e-18;
                filled = 0;
            }
        }
        if (eof && pos >= len) break;
    }
    for (int i = 0; i < filled; i++) sum += lat[i] + acc[i] + (double)t[i] * 1e-18;
    free(buf);
    close(fd);
    *checksum = sum;
    return failed ? -1 : rows;
}

/* ---- Dense 4x4 Kalman filter and RTS smoother: the textbook peer (state e, n, ve, vn). ---- */

static void mat4_mul(const double *a, const double *b, double *c) { /* c = a b */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += a[i * 4 + k] * b[k * 4 + j];
            c[i * 4 + j] = s;
        }
}

static void mat4_mul_bt(const double *a, const double *b, double *c) { /* c = a bᵀ */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += a[i * 4 + k] * b[j * 4 + k];
            c[i * 4 + j] = s;
        }
}

static void cv_model(double dt, double q, double *F, double *Q) {
    for (int i = 0; i < 16; i++) { F[i] = 0; Q[i] = 0; }
    for (int i = 0; i < 4; i++) F[i * 4 + i] = 1;
    F[0 * 4 + 2] = dt; F[1 * 4 + 3] = dt;
    double a = q * dt * dt * dt / 3, b = q * dt * dt / 2, c = q * dt;
    Q[0 * 4 + 0] = a; Q[1 * 4 + 1] = a; Q[0 * 4 + 2] = b; Q[2 * 4 + 0] = b;
    Q[1 * 4 + 3] = b; Q[3 * 4 + 1] = b; Q[2 * 4 + 2] = c; Q[3 * 4 + 3] = c;
}

/* Predict to t, gate, update with H = [I2 0]; x and P updated in place. Returns 1 if accepted. */
static int dense_step(double *x, double *P, double dt, double q, double ze, double zn, double r, double gate) {
    double F[16], Q[16], FP[16], Pp[16];
    cv_model(dt, q, F, Q);
    double xp[4];
    for (int i = 0; i < 4; i++) { double s = 0; for (int k = 0; k < 4; k++) s += F[i * 4 + k] * x[k]; xp[i] = s; }
    mat4_mul(F, P, FP);
    mat4_mul_bt(FP, F, Pp);
    for (int i = 0; i < 16; i++) Pp[i] += Q[i];
    double s00 = Pp[0] + r, s01 = Pp[1], s10 = Pp[4], s11 = Pp[5] + r;
    double det = s00 * s11 - s01 * s10;
    double i00 = s11 / det, i01 = -s01 / det, i10 = -s10 / det, i11 = s00 / det;
    double ye = ze - xp[0], yn = zn - xp[1];
    double d2 = ye * (i00 * ye + i01 * yn) + yn * (i10 * ye + i11 * yn);
    if (!(d2 <= gate)) {
        for (int i = 0; i < 4; i++) x[i] = xp[i];
        for (int i = 0; i < 16; i++) P[i] = Pp[i];
        return 0;
    }
    double K[8]; /* 4x2: K = Pp Hᵀ S⁻¹, Pp Hᵀ is Pp's first two columns */
    for (int i = 0; i < 4; i++) {
        K[i * 2 + 0] = Pp[i * 4 + 0] * i00 + Pp[i * 4 + 1] * i10;
        K[i * 2 + 1] = Pp[i * 4 + 0] * i01 + Pp[i * 4 + 1] * i11;
    }
    for (int i = 0; i < 4; i++) x[i] = xp[i] + K[i * 2] * ye + K[i * 2 + 1] * yn;
    for (int i = 0; i < 4; i++) /* P = (I − K H) Pp */
        for (int j = 0; j < 4; j++) P[i * 4 + j] = Pp[i * 4 + j] - K[i * 2] * Pp[0 * 4 + j] - K[i * 2 + 1] * Pp[1 * 4 + j];
    return 1;
}

double cb_kalman_dense(const double *t, const double *e, const double *nn, const double *var, size_t n,
                       double q, double v0, double gate) {
    double x[4] = {e[0], nn[0], 0, 0}, P[16] = {0};
    P[0] = var[0]; P[5] = var[0]; P[10] = v0; P[15] = v0;
    long accepted = 0;
    for (size_t i = 1; i < n; i++) accepted += dense_step(x, P, t[i] - t[i - 1], q, e[i], nn[i], var[i], gate);
    return x[0] + x[1] + (double)accepted;
}

/* Inverts a symmetric positive-definite 4x4 by Gauss–Jordan (no pivoting needed). */
static void mat4_inverse(const double *a, double *inv) {
    double m[32];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) m[i * 8 + j] = j < 4 ? a[i * 4 + j] : (j - 4 == i);
    for (int c = 0; c < 4; c++) {
        double p = 1 / m[c * 8 + c];
        for (int j = 0; j < 8; j++) m[c * 8 + j] *= p;
        for (int r = 0; r < 4; r++) {
            if (r == c) continue;
            double f = m[r * 8 + c];
            for (int j = 0; j < 8; j++) m[r * 8 + j] -= f * m[c * 8 + j];
        }
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) inv[i * 4 + j] = m[i * 8 + 4 + j];
}

double cb_rts_dense(const double *t, const double *e, const double *nn, const double *var, size_t n,
                    double q, double v0, double gate, double *xs, double *Ps) {
    /* Forward: filtered states and covariances into xs (4 per point) and Ps (16 per point). */
    double *x = xs, *P = Ps;
    for (int i = 0; i < 16; i++) P[i] = 0;
    x[0] = e[0]; x[1] = nn[0]; x[2] = 0; x[3] = 0;
    P[0] = var[0]; P[5] = var[0]; P[10] = v0; P[15] = v0;
    for (size_t i = 1; i < n; i++) {
        for (int k = 0; k < 4; k++) xs[i * 4 + k] = xs[(i - 1) * 4 + k];
        for (int k = 0; k < 16; k++) Ps[i * 16 + k] = Ps[(i - 1) * 16 + k];
        dense_step(xs + i * 4, Ps + i * 16, t[i] - t[i - 1], q, e[i], nn[i], var[i], gate);
    }
    /* Backward: C = P Fᵀ Pp⁻¹, x += C (xs' − F x), P += C (Ps' − Pp) Cᵀ. */
    for (size_t k = n - 1; k-- > 0;) {
        double F[16], Q[16], FP[16], Pp[16], Ppi[16], PFt[16], C[16], D[16], CD[16], CDC[16];
        double *xk = xs + k * 4, *Pk = Ps + k * 16, *xn = xs + (k + 1) * 4, *Pn = Ps + (k + 1) * 16;
        cv_model(t[k + 1] - t[k], q, F, Q);
        mat4_mul(F, Pk, FP);
        mat4_mul_bt(FP, F, Pp);
        for (int i = 0; i < 16; i++) Pp[i] += Q[i];
        mat4_inverse(Pp, Ppi);
        mat4_mul_bt(Pk, F, PFt);
        mat4_mul(PFt, Ppi, C);
        double xp[4], dx[4];
        for (int i = 0; i < 4; i++) { double s = 0; for (int j = 0; j < 4; j++) s += F[i * 4 + j] * xk[j]; xp[i] = s; }
        for (int i = 0; i < 4; i++) dx[i] = xn[i] - xp[i];
        for (int i = 0; i < 4; i++) { double s = 0; for (int j = 0; j < 4; j++) s += C[i * 4 + j] * dx[j]; xk[i] += s; }
        for (int i = 0; i < 16; i++) D[i] = Pn[i] - Pp[i];
        mat4_mul(C, D, CD);
        mat4_mul_bt(CD, C, CDC);
        for (int i = 0; i < 16; i++) Pk[i] += CDC[i];
    }
    return xs[0] + xs[(n / 2) * 4 + 1] + Ps[(n / 2) * 16];
}

/* ---- The C strtok peer for NMEA (see the header). ---- */
static int cb_nmea_hex(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}
/* ddmm.mmmm (or dddmm.mmmm) and its hemisphere letter to signed degrees. */
static double cb_nmea_degrees(const char *field, const char *hemisphere) {
    double v = strtod(field, NULL);
    double d = (double)(long)(v / 100);
    double deg = d + (v - d * 100) / 60;
    return (*hemisphere == 'S' || *hemisphere == 'W') ? -deg : deg;
}
/* hhmmss.ss to seconds of the day. */
static double cb_nmea_seconds(const char *field) {
    double v = strtod(field, NULL);
    long hms = (long)v;
    return (hms / 10000) * 3600.0 + (hms / 100 % 100) * 60.0 + (hms % 100) + (v - (double)hms);
}
long cb_strtok_nmea(const char *path, double *checksum) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[256];
    long epochs = 0;
    double sum = 0;
    while (fgets(line, sizeof line, f)) {
        char *dollar = strchr(line, '$');
        if (!dollar) continue;
        char *star = strchr(dollar, '*');
        if (!star) { fclose(f); return -1; }
        unsigned char x = 0;
        for (char *p = dollar + 1; p < star; p++) x ^= (unsigned char)*p;
        int hi = cb_nmea_hex(star[1]), lo = cb_nmea_hex(star[2]);
        if (hi < 0 || lo < 0 || (hi << 4 | lo) != x) { fclose(f); return -1; }
        *star = 0;
        char *fields[20];
        int n = 0;
        for (char *t = strtok(dollar + 1, ","); t && n < 20; t = strtok(NULL, ",")) fields[n++] = t;
        if (n < 1 || strlen(fields[0]) != 5) continue;
        const char *type = fields[0] + 2;
        if (strcmp(type, "RMC") == 0 && n >= 10 && fields[2][0] == 'A') {
            double seconds = cb_nmea_seconds(fields[1]);
            double lat = cb_nmea_degrees(fields[3], fields[4]), lon = cb_nmea_degrees(fields[5], fields[6]);
            double speed = strtod(fields[7], NULL) * 1852 / 3600;
            const char *d = fields[9];
            int day = (d[0] - '0') * 10 + d[1] - '0', month = (d[2] - '0') * 10 + d[3] - '0', year = 2000 + (d[4] - '0') * 10 + d[5] - '0';
            /* days from civil (Hinnant) */
            int y = month <= 2 ? year - 1 : year;
            long era = y / 400, yoe = y - era * 400, mp = month > 2 ? month - 3 : month + 9;
            long days = era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + (153 * mp + 2) / 5 + day - 1 - 719468;
            sum += lat + lon + speed + (days * 86400.0 + seconds) * 1e-9;
            epochs++;
        } else if (strcmp(type, "GGA") == 0 && n >= 10) {
            sum += cb_nmea_seconds(fields[1]) * 1e-9 + strtod(fields[9], NULL);
        }
    }
    fclose(f);
    *checksum = sum;
    return epochs;
}
