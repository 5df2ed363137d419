// zlib's inflate: only for decoding the browser checks' PNG screenshots (Tests/PNGPixels).
#include <zlib.h>
