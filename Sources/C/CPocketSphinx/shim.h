#include <pocketsphinx.h>
// err_set_logfp: pocketsphinx logs through sphinxbase, to stderr unless redirected.
#include <sphinxbase/err.h>
#include <sphinxbase/ngram_model.h>
