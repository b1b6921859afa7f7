// Tesseract's C API (Debian libtesseract-dev 5.3). Pictures are handed over as 8-bit grey
// buffers, so Leptonica's headers are not needed here.
#include <tesseract/capi.h>
