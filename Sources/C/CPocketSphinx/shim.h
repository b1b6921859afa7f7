#include <pocketsphinx.h>
// err_set_logfp: pocketsphinx logs through sphinxbase, to stderr unless redirected.
#include <sphinxbase/err.h>
// ngram_model_read, ngram_model_set_init: the command n-gram model, alone or interpolated.
#include <sphinxbase/ngram_model.h>
