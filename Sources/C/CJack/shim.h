#include <jack/jack.h>

/* jack_client_open is variadic, which Swift cannot call: this fixes its arguments. Never
   starts a server: a hearing aid must not launch one behind the user's back. */
static inline jack_client_t *cjack_client_open(const char *name, jack_status_t *status) {
    return jack_client_open(name, (jack_options_t)(JackNoStartServer), status);
}

/* The same, on the server named `server` rather than JACK_DEFAULT_SERVER's (tests run servers of
   their own beside whatever else runs). */
static inline jack_client_t *cjack_client_open_on(const char *name, const char *server, jack_status_t *status) {
    return jack_client_open(name, (jack_options_t)(JackNoStartServer | JackServerName), status, server);
}
