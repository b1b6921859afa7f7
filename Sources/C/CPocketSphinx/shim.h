#include <pocketsphinx.h>
