#include <kissfft/kiss_fftr.h>
