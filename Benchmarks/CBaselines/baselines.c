#include "CBaselines.h"
#include <geodesic.h>
#include <math.h>
#include <proj.h>
#include <stdlib.h>

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
