// The smallest real JACK client: copies system:capture_1 to system:playback_1 through its own
// ports, counts its process cycles and the server's xruns, and after SECONDS prints them as
// JSON with the periods the wall clock expected and the server's frame clock. It tells whether
// the dummy backend itself keeps real time (periods ≈ expected) when nothing heavy runs.
// Build: cc -O2 count_client.c -o count_client -ljack   (bench/jack/soak_check.sh does it)
#include <jack/jack.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static jack_port_t *in, *out;
static atomic_long cycles, xruns;

static int process(jack_nframes_t n, void *arg) {
    memcpy(jack_port_get_buffer(out, n), jack_port_get_buffer(in, n), n * sizeof(float));
    atomic_fetch_add(&cycles, 1);
    return 0;
}

static int xrun(void *arg) { atomic_fetch_add(&xruns, 1); return 0; }

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: count_client SECONDS\n"); return 64; }
    double seconds = atof(argv[1]);
    jack_status_t status;
    jack_client_t *c = jack_client_open("countclient", JackNoStartServer, &status);
    if (!c) { fprintf(stderr, "count_client: no JACK server is running.\n"); return 1; }
    in = jack_port_register(c, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
    out = jack_port_register(c, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    jack_set_process_callback(c, process, 0);
    jack_set_xrun_callback(c, xrun, 0);
    if (jack_activate(c)) { fprintf(stderr, "count_client: the client could not be activated.\n"); return 1; }
    jack_connect(c, "system:capture_1", "countclient:in");
    jack_connect(c, "countclient:out", "system:playback_1");
    double t0 = now();
    jack_nframes_t f0 = jack_frame_time(c);
    long c0 = atomic_load(&cycles);
    double load = 0;
    int loads = 0;
    while (now() - t0 < seconds) { usleep(500000); load += jack_cpu_load(c); loads++; }
    double t1 = now();
    jack_nframes_t f1 = jack_frame_time(c);
    long c1 = atomic_load(&cycles);
    unsigned rate = jack_get_sample_rate(c), period = jack_get_buffer_size(c);
    printf("{\"wallSeconds\": %.3f, \"periods\": %ld, \"expectedPeriods\": %.0f, \"frameClockSeconds\": %.3f, "
           "\"xruns\": %ld, \"meanCpuLoadPercent\": %.2f, \"rate\": %u, \"period\": %u}\n",
           t1 - t0, c1 - c0, (t1 - t0) * rate / period, (double)(jack_nframes_t)(f1 - f0) / rate,
           (long)atomic_load(&xruns), loads ? load / loads : 0, rate, period);
    jack_client_close(c);
    return 0;
}
