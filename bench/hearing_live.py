#!/usr/bin/env python3
"""Issue 17 §1: the hearing aid live through JACK, measured.

For each JACK period (32, 64, 128 frames) it starts a JACK server of its own (dummy backend,
48 kHz), runs `assist hear --live --json`, feeds 1 kHz bursts (jack_metro) into its input
ports instead of the dummy microphone, records the bursts and the aid's left output side by
side (jack_rec), and finds the round trip (input port -> processing -> output port) by
cross-correlation, plus the gain at 1 kHz. Then a soak at 64 frames counts dropouts (xruns) of
the aid and, alternating with it in the same window, of a do-nothing client: what the machine
and JACK's dummy backend give when nothing is processed. The load average is sampled during
the runs and reported as measured.
Every jackd it starts is stopped by its process id. Prints the numbers and writes the
`hearing-live-bench` section of BENCHMARKS.md.
"""
import argparse, json, os, signal, subprocess, sys, tempfile, time, uuid, wave

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from markdown_section import replace_section

AUDIOGRAM = """{"rule": "nal-r",
 "left":  {"thresholds": {"250": 20, "500": 30, "1000": 40, "2000": 55, "4000": 70, "8000": 75}},
 "right": {"thresholds": {"250": 25, "500": 35, "1000": 45, "2000": 60, "4000": 70}}}"""


def run(cmd, env, **kw):
    return subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, **kw)


def wait_port(port, env, tries=200):
    for _ in range(tries):
        if port in run(["jack_lsp"], env).stdout.split("\n"):
            return True
        time.sleep(0.1)
    return False


def summary(text):
    return json.loads(text[text.index("{\n"):])


def start_server(period, folder):
    """A dummy-backend server of its own (real-time, jackd's default); its log goes to a file."""
    name = f"assist-bench-{uuid.uuid4().hex[:8]}"
    env = dict(os.environ, JACK_DEFAULT_SERVER=name, JACK_NO_START_SERVER="1")
    log = open(os.path.join(folder, f"{name}.log"), "w")
    server = subprocess.Popen(["jackd", "-n", name, "-d", "dummy", "-r", "48000", "-p", str(period)],
                              stdout=log, stderr=subprocess.STDOUT)
    run(["jack_wait", "-w", "-s", name, "-t", "10"], env)
    return server, env, log


def stop_server(server, log):
    """Stops the server by its process id; jackd's xrun lines by cause: the backend's timer woke a
    period late (`JackTimedDriver::Process XRun`), or a client had not finished when the next
    cycle began (jackd names it)."""
    server.terminate(); server.wait(); log.close()
    with open(log.name) as f:
        text = f.read()
    return {"timerLate": text.count("JackTimedDriver::Process XRun"), "clientLate": text.count("was not finished")}


def measure(assist, period, seconds, folder, record=True):
    server, env, log = start_server(period, folder)
    metro = None
    try:
        audiogram = os.path.join(folder, "me.json")
        with open(audiogram, "w") as f:
            f.write(AUDIOGRAM)
        user = tempfile.mkdtemp(dir=folder)
        hear_env = dict(env, XDG_DATA_HOME=user + "/data", XDG_CONFIG_HOME=user + "/config", XDG_RUNTIME_DIR=user + "/run")
        hear = subprocess.Popen([assist, "hear", "--live", "--audiogram", audiogram, "--duration", str(seconds), "--json"],
                                env=hear_env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        wait_port("assist-hear:in_1", env)
        result = {"period": period}
        if record:
            for i in ("1", "2"):
                run(["jack_disconnect", f"system:capture_{i}", f"assist-hear:in_{i}"], env)
            metro = subprocess.Popen(["jack_metro", "-n", "tone", "-b", "60", "-f", "1000", "-A", "0.005623",
                                      "-D", "400", "-a", "5", "-d", "5"], env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wait_port("tone:60_bpm", env)
            for i in ("1", "2"):
                run(["jack_connect", "tone:60_bpm", f"assist-hear:in_{i}"], env)
            time.sleep(3)  # past the 2-s start-up ramp
            wav = os.path.join(folder, f"rec-{period}.wav")
            run(["jack_rec", "-f", wav, "-d", "4", "-b", "32", "tone:60_bpm", "assist-hear:out_1"], env)
            with wave.open(wav) as w:
                raw = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int32).astype(np.float64) / 2**31
            ref, out = raw[0::2], raw[1::2]
            # The last whole burst's middle 200 ms; the lag that lines the output up with it.
            blocks = len(ref) // 480
            active = [np.mean(ref[b * 480:(b + 1) * 480] ** 2) > 4e-6 for b in range(blocks)]
            runs, start = [], None
            for b, a in enumerate(active):
                if a and start is None:
                    start = b
                if not a and start is not None:
                    runs.append((start, b)); start = None
            runs = [r for r in runs if r[1] - r[0] >= 30]
            a, b = runs[-1]
            centre = (a + b) * 240
            mid = slice(centre - 4800, centre + 4800)
            # Within a steady tone every lag a whole period (48 samples) apart fits almost equally
            # well, so the lag is first found where each envelope (|x| over one period) last falls
            # through half its middle level (the burst's end, where the compressor has settled),
            # then refined to the sample within half a period of that.
            def envelope(x):
                return np.convolve(np.abs(x), np.ones(48) / 48, mode="same")
            def last_above_half(env, end):
                half = np.mean(env[mid]) / 2
                above = np.nonzero(env[centre + 4800:end] > half)[0]
                return centre + 4800 + (int(above[-1]) if len(above) else 0)
            edge = last_above_half(envelope(out), min(len(out), b * 480 + 2400 + 1024)) - last_above_half(envelope(ref), b * 480 + 2400)
            near = min(max(0, edge - 24), 1000)
            fits = [np.dot(ref[mid], out[centre - 4800 + lag:centre + 4800 + lag]) for lag in range(near, near + 49)]
            lag = near + int(np.argmax(fits))
            gain = 20 * np.log10(np.sqrt(np.mean(out[centre - 4800 + lag:centre + 4800 + lag] ** 2)) / np.sqrt(np.mean(ref[mid] ** 2)))
            result.update(roundTripFrames=lag, roundTripMilliseconds=lag / 48.0, gainDecibels=float(gain))
        text, _ = hear.communicate(timeout=seconds + 60)
        s = summary(text)
        result.update(blocks=s["blocks"], dropouts=s["dropouts"], seconds=s["seconds"],
                      reportedLatencyMilliseconds=s["totalLatencyMilliseconds"], chainMilliseconds=s["chainLatencyMilliseconds"])
    finally:
        if metro:
            metro.send_signal(signal.SIGKILL); metro.wait()
        causes = stop_server(server, log)
    result["xrunCauses"] = causes
    return result


def baseline(client, seconds, folder):
    """The do-nothing client (bench/jack/count_client.c) alone in a server of its own, set up
    exactly as the aid's: what the server and this machine give when nothing is processed."""
    server, env, log = start_server(64, folder)
    try:
        out = subprocess.run([client, str(seconds)], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True, timeout=seconds + 60).stdout
    finally:
        causes = stop_server(server, log)
    counted = json.loads(out)
    return {"seconds": counted["wallSeconds"], "blocks": counted["periods"], "dropouts": counted["xruns"], "xrunCauses": causes}


class LoadSampler:
    """The 1-minute load average and the CPU time stolen by the hypervisor, sampled every 5 s
    while a run lasts: the conditions it ran under, as measured, not as assumed."""
    def __init__(self):
        self.samples, self.stop = [], False
        import threading
        self.steal0 = self.steal()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    @staticmethod
    def steal():
        with open("/proc/stat") as f:
            return int(f.readline().split()[8])

    def loop(self):
        while not self.stop:
            self.samples.append(os.getloadavg()[0])
            time.sleep(5)

    def finish(self):
        self.stop = True
        self.thread.join()
        return {"loadMean": sum(self.samples) / len(self.samples), "loadMin": min(self.samples), "loadMax": max(self.samples),
                "stealSeconds": (self.steal() - self.steal0) / os.sysconf("SC_CLK_TCK")}


def soak(assist, seconds, segment, folder):
    """`seconds` of the aid and `seconds` of the do-nothing client, alternating in segments of
    `segment` seconds (baseline first), each in a fresh server with the same settings, so both
    meet the same machine: the aid's dropouts beside what the machine gives a client that does nothing."""
    client = os.path.join(folder, "count_client")
    subprocess.run(["cc", "-O2", os.path.join(os.path.dirname(__file__), "jack", "count_client.c"), "-o", client, "-ljack"], check=True)
    arms = {"baseline": [], "aid": []}
    left = seconds
    while left > 0:
        length = min(segment, left)
        for arm in ("baseline", "aid"):
            sampler = LoadSampler()
            if arm == "baseline":
                r = baseline(client, length, folder)
            else:
                r = measure(assist, 64, length, folder, record=False)
            r.update(sampler.finish())
            arms[arm].append(r)
            print(f"soak {arm}: {r}", file=sys.stderr, flush=True)
        left -= length
    def total(runs):
        return {"seconds": sum(r["seconds"] for r in runs), "blocks": sum(r["blocks"] for r in runs),
                "dropouts": sum(r["dropouts"] for r in runs),
                "timerLate": sum(r["xrunCauses"]["timerLate"] for r in runs), "clientLate": sum(r["xrunCauses"]["clientLate"] for r in runs),
                "loadMean": sum(r["loadMean"] for r in runs) / len(runs), "loadMin": min(r["loadMin"] for r in runs),
                "loadMax": max(r["loadMax"] for r in runs), "stealSeconds": sum(r["stealSeconds"] for r in runs),
                "segments": [r["dropouts"] for r in runs], "zeroSegments": sum(1 for r in runs if r["dropouts"] == 0)}
    return {"segmentSeconds": segment, "baseline": total(arms["baseline"]), "aid": total(arms["aid"]), "runs": arms}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--assist", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--markdown")
    parser.add_argument("--soak-seconds", type=float, default=600, help="seconds of the aid, and as many of the do-nothing client")
    parser.add_argument("--soak-segment", type=float, default=120, help="the soak alternates aid and baseline in segments this long")
    parser.add_argument("--build-label", default="release build", help="which build of assist was measured, for the report")
    parser.add_argument("--from-json", help="write the section from a saved hearing-live.json instead of measuring")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.from_json:
        with open(args.from_json) as f:
            report = json.load(f)
    else:
        folder = tempfile.mkdtemp(prefix="hearing-live-bench-")
        sampler = LoadSampler()
        rows = [measure(args.assist, p, 9, folder) for p in (32, 64, 128)]
        sweep_load = sampler.finish()
        soaked = soak(args.assist, args.soak_seconds, args.soak_segment, folder)
        report = {"periods": rows, "periodsLoad": sweep_load, "soak": soaked, "buildLabel": args.build_label, "cores": os.cpu_count()}
        with open(os.path.join(args.out, "hearing-live.json"), "w") as f:
            json.dump(report, f, indent=2)
    section = markdown(report)
    print(section)
    if args.markdown:
        replace_section(args.markdown, "hearing-live-bench", section)


def markdown(report):
    rows, sweep_load, soaked = report["periods"], report["periodsLoad"], report["soak"]
    label, cores = report["buildLabel"], report["cores"]
    lines = ["<!-- hearing-live-bench -->", "## Hearing aid live through JACK (issue 17)", "",
             f"`scripts/bench --hearing-live` ({label}): a JACK server of its own (dummy backend, 48 kHz), "
             "1 kHz bursts at 65 dB SPL from `jack_metro` into the aid's input ports, the bursts and the left output "
             "recorded side by side with `jack_rec`; round trip input port → processing → output port by "
             "cross-correlation. Prescribed gain at 1 kHz (NAL-R, the test audiogram): 19.6 dB. "
             f"1-minute load average during these runs: {sweep_load['loadMean']:.1f} on average "
             f"({sweep_load['loadMin']:.1f}–{sweep_load['loadMax']:.1f}), {cores} cores.", "",
             "| JACK period | round trip (frames) | round trip (ms) | gain at 1 kHz (dB) | reported latency (ms) | blocks | dropouts |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['period']} | {r['roundTripFrames']} | {r['roundTripMilliseconds']:.2f} | {r['gainDecibels']:.2f} | "
                     f"{r['reportedLatencyMilliseconds']:.1f} | {r['blocks']} | {r['dropouts']} |")
    b, a = soaked["baseline"], soaked["aid"]
    segments = len(a["segments"])
    lines += ["", "The round trip is the chain's algorithmic delay, window − hop: 256 − 32 = 224 frames at 32-frame periods, "
              "256 − 64 = 192 at 64, and 192 at 128 (two 64-frame hops per period) — JACK runs the graph in order within each "
              "period, so the ports add nothing; a sound card adds its own period(s) on top (the reported latency).", "",
              f"**Soak at 64-frame periods**: {a['seconds']:.0f} s of the aid (`assist hear --live`) and {b['seconds']:.0f} s of a "
              "do-nothing client (`bench/jack/count_client.c`: copies capture to playback), alternating in "
              f"{soaked['segmentSeconds']:.0f}-s segments ({segments} each, the do-nothing client first), each in a fresh server with "
              "the same settings (dummy backend, 48 kHz, real-time: jackd's default), so both meet the same machine. A dropout is an "
              "xrun as JACK reports it to the client; jackd's log says why: its timer woke a period late, or a client had not finished "
              "when the next cycle began.", "",
              "| client | seconds | periods | **dropouts** | per segment | backend timer late | a client late | 1-min load average: mean (min–max) | CPU time stolen by the hypervisor (s) |",
              "|---|---|---|---|---|---|---|---|---|"]
    for client, t in (("do-nothing client", b), ("hearing aid", a)):
        lines.append(f"| {client} | {t['seconds']:.0f} | {t['blocks']} | **{t['dropouts']}** | {', '.join(map(str, t['segments']))} | "
                     f"{t['timerLate']} | {t['clientLate']} | {t['loadMean']:.1f} ({t['loadMin']:.1f}–{t['loadMax']:.1f}) | {t['stealSeconds']:.1f} |")
    if a["dropouts"] == 0:
        verdict = "the aid had 0 dropouts: the target is met"
    elif b["dropouts"] == 0:
        verdict = "the aid had dropouts where the do-nothing client had none: the aid causes them, not the target"
    else:
        aid_rate, base_rate = a["dropouts"] / max(a["blocks"], 1), b["dropouts"] / max(b["blocks"], 1)
        compared = ("no more than the client that does nothing: the aid adds no dropouts of its own that this measure can see"
                    if aid_rate <= base_rate else "more than the client that does nothing: the difference is the aid's, or the machine's spread")
        verdict = (f"the aid had {a['dropouts']} dropouts against the do-nothing client's {b['dropouts']} in the same window "
                   f"({100 * aid_rate:.3f} % of periods against {100 * base_rate:.3f} %), {compared}; segments with 0: "
                   f"{a['zeroSegments']} of {segments} for the aid, {b['zeroSegments']} of {segments} for the do-nothing client. "
                   "0 dropouts cannot be shown where a client that does nothing gets xruns")
    lines += ["", f"Verdict ({label}, {cores} cores shared with other builds at the load above): {verdict}.",
              "<!-- /hearing-live-bench -->", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
