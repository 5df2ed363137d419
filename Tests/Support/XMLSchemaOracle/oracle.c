#include "XMLSchemaOracle.h"
#include <libxml/parser.h>
#include <libxml/xmlschemas.h>

static void quiet(void *context, const char *message, ...) { (void)context; (void)message; }

int xsd_oracle_validate(const char *schema, size_t schema_length, const char *document, size_t document_length) {
    xmlSetGenericErrorFunc(NULL, quiet);
    xmlSchemaParserCtxtPtr parser = xmlSchemaNewMemParserCtxt(schema, (int)schema_length);
    if (parser == NULL) return -1;
    xmlSchemaPtr parsed = xmlSchemaParse(parser);
    xmlSchemaFreeParserCtxt(parser);
    if (parsed == NULL) return -1;
    int result = -2;
    xmlDocPtr doc = xmlReadMemory(document, (int)document_length, "document.xml", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (doc != NULL) {
        xmlSchemaValidCtxtPtr valid = xmlSchemaNewValidCtxt(parsed);
        if (valid != NULL) {
            xmlSchemaSetValidErrors(valid, quiet, quiet, NULL);
            result = xmlSchemaValidateDoc(valid, doc) == 0 ? 0 : 1;
            xmlSchemaFreeValidCtxt(valid);
        } else {
            result = -1;
        }
        xmlFreeDoc(doc);
    }
    xmlSchemaFree(parsed);
    return result;
}
