// XML Schema validation by libxml2, for the tests of reports that promise a schema (JUnit).
// (Kept in C so that libxml2's headers, which pull in ICU, never meet Foundation's in Swift.)
#ifndef XML_SCHEMA_ORACLE_H
#define XML_SCHEMA_ORACLE_H
#include <stddef.h>

/// Validates `document` against the XML Schema `schema` with libxml2 (xmlSchemaValidateDoc; no
/// network). Returns 0 when valid, 1 when well-formed but invalid, -1 when the schema does not
/// parse, -2 when the document is not well-formed.
int xsd_oracle_validate(const char *schema, size_t schema_length, const char *document, size_t document_length);
#endif
