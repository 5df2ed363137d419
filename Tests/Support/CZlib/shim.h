// zlib's inflate: only for decoding the browser checks' PNG screenshots (Tests/Support/PNGPixels).
#include <zlib.h>
