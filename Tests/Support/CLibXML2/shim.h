// libxml2's streaming reader: the reference XML parser the GPX reader is tested against.
#include <libxml/xmlreader.h>
