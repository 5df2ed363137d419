#include "GPXOracle.h"
#include <libxml/xmlreader.h>
#include <string.h>

static void append(char *dst, size_t cap, const char *src) {
    size_t used = strlen(dst);
    if (used + 1 >= cap) return;
    strncat(dst, src, cap - used - 1);
}

long oracle_track_points(const char *bytes, size_t n, oracle_point *out, size_t cap) {
    xmlTextReaderPtr reader = xmlReaderForMemory(bytes, (int)n, NULL, NULL, XML_PARSE_NONET);
    if (!reader) return -1;
    long count = 0;
    int point_depth = -1; /* depth of the open point (trkpt, rtept or wpt); -1 outside points */
    int in_track_point = 0;
    int field = 0;        /* 1 ele, 2 time */
    int r;
    while ((r = xmlTextReaderRead(reader)) == 1) {
        int type = xmlTextReaderNodeType(reader);
        int depth = xmlTextReaderDepth(reader);
        const char *local = (const char *)xmlTextReaderConstLocalName(reader);
        if (!local) local = "";
        int is_point = strcmp(local, "trkpt") == 0 || strcmp(local, "rtept") == 0 || strcmp(local, "wpt") == 0;
        if (type == XML_READER_TYPE_ELEMENT) {
            if (is_point && point_depth < 0) { /* a point inside a point is not read */
                int track = strcmp(local, "trkpt") == 0;
                if (track) {
                    if ((size_t)count < cap) {
                        oracle_point *p = &out[count];
                        memset(p, 0, sizeof *p);
                        xmlChar *lat = xmlTextReaderGetAttribute(reader, (const xmlChar *)"lat");
                        xmlChar *lon = xmlTextReaderGetAttribute(reader, (const xmlChar *)"lon");
                        if (lat) { append(p->lat, sizeof p->lat, (const char *)lat); xmlFree(lat); }
                        if (lon) { append(p->lon, sizeof p->lon, (const char *)lon); xmlFree(lon); }
                    }
                    count++;
                }
                if (!xmlTextReaderIsEmptyElement(reader)) { point_depth = depth; in_track_point = track; }
            } else if (in_track_point && depth == point_depth + 1 && (size_t)count <= cap) {
                /* A direct child <ele> or <time>; only the first of each is read. */
                oracle_point *p = &out[count - 1];
                if (strcmp(local, "ele") == 0 && !p->has_ele) { field = 1; p->has_ele = 1; }
                else if (strcmp(local, "time") == 0 && !p->has_time) { field = 2; p->has_time = 1; }
            }
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            if (is_point && depth == point_depth) { point_depth = -1; in_track_point = 0; }
            if (depth == point_depth + 1 && (strcmp(local, "ele") == 0 || strcmp(local, "time") == 0)) field = 0;
        } else if ((type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA || type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE)
                   && field && count > 0 && (size_t)count <= cap) {
            const char *v = (const char *)xmlTextReaderConstValue(reader);
            if (v) {
                oracle_point *p = &out[count - 1];
                if (field == 1) append(p->ele, sizeof p->ele, v); else append(p->time, sizeof p->time, v);
            }
        }
    }
    xmlFreeTextReader(reader);
    return r < 0 ? -1 : count;
}
