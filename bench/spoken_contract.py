#!/usr/bin/env python3
"""Measures issue 14's spoken contract on a video, with the built `assist`.

  python3 bench/spoken_contract.py render VIDEO [assist see options…]
      printed-not-heard count and the longest transcript entry (offline rendering)
  python3 bench/spoken_contract.py json VIDEO [assist see options…]
      the same with --json: its announcements listed as said (not superseded, not vibration)
      that are missing from the transcript
  python3 bench/spoken_contract.py exit VIDEO
      seconds from "exit" (sent on the control socket after three long questions) to the
      process's end, from `assist ctl exit` (as a user types it) returning "Goodbye." to the end,
      and from SIGTERM and SIGINT (Ctrl-C) to the end; whether the control socket is left behind

A 40-s video panning across the shared pictures, people passing (what the numbers in the README were
measured on):
  ffmpeg -loop 1 -t 20 -framerate 15 -i ../shared/data/images/bus.jpg -loop 1 -t 20 -framerate 15 \
    -i ../shared/data/images/zidane.jpg -filter_complex "[0]scale=1280:-2,crop=640:480:640*t/20:600,setsar=1[a];\
[1]crop=640:480:640*t/20:120,setsar=1[b];[a][b]concat=n=2:v=1,format=yuv420p" -c:v libx264 -preset ultrafast walk.mp4
  python3 bench/spoken_contract.py render walk.mp4 --watchdog 30 --at "10:explore scene" --at "25:help" \
    --at "28:list categories" --at "32:what did you detect recently"

Each run gets its own temporary user folders, so nothing of the user's is read or changed.
--assist PATH chooses the binary (default: .build/release/assist, else .build/debug/assist).
"""
import argparse, collections, json, os, re, signal, socket, subprocess, sys, tempfile, time
from pathlib import Path


def assist_binary(given):
    if given:
        return given
    for build in ("release", "debug"):
        path = Path(__file__).resolve().parent.parent / ".build" / build / "assist"
        if path.exists():
            return str(path)
    sys.exit("spoken_contract: no built assist; run scripts/build first.")


def user_environment(folder):
    env = dict(os.environ)
    for name, sub in (("HOME", "home"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
                      ("XDG_RUNTIME_DIR", "run"), ("XDG_CACHE_HOME", "cache")):
        path = Path(folder) / sub
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        env[name] = str(path)
    return env


def seconds(stamp):
    hours, minutes, rest = stamp.split(":")
    whole, millis = rest.split(",")
    return int(hours) * 3600 + int(minutes) * 60 + int(whole) + int(millis) / 1000


def render(args):
    with tempfile.TemporaryDirectory() as folder:
        srt = Path(folder) / "said.srt"
        run = subprocess.run([args.assist, "see", args.video, *args.rest, "--speak-to", str(Path(folder) / "said.wav"),
                              "--transcript", str(srt)], env=user_environment(folder), capture_output=True, text=True)
        printed = [re.sub(r"^\[[0-9.]+ s\] ", "", line) for line in run.stdout.splitlines() if line.startswith("[")]
        heard, longest = [], (0.0, "")
        for block in filter(str.strip, srt.read_text().split("\n\n")):
            lines = block.strip().split("\n")
            start, end = lines[1].split(" --> ")
            text = re.sub(r"^\[tone [a-z-]+\] ", "", " ".join(lines[2:]))
            heard.append(text)
            longest = max(longest, (seconds(end) - seconds(start), text))
        missing = collections.Counter(printed) - collections.Counter(heard)
        print(f"exit status {run.returncode}; printed {len(printed)}, heard {len(heard)}, "
              f"printed-not-heard {sum(missing.values())} {list(missing)[:5]}")
        print(f"longest utterance {longest[0]:.2f} s: {longest[1]}")


def transcript_texts(srt):
    texts = []
    for block in filter(str.strip, srt.read_text().split("\n\n")):
        texts.append(re.sub(r"^\[tone [a-z-]+\] ", "", " ".join(block.strip().split("\n")[2:])))
    return texts


def json_said(args):
    with tempfile.TemporaryDirectory() as folder:
        srt = Path(folder) / "said.srt"
        run = subprocess.run([args.assist, "see", args.video, *args.rest, "--json", "--speak-to",
                              str(Path(folder) / "said.wav"), "--transcript", str(srt)],
                             env=user_environment(folder), capture_output=True, text=True)
        said, outcomes = [], collections.Counter()
        for line in filter(str.strip, run.stdout.splitlines()):
            for announcement in json.loads(line).get("announcements", []):
                outcomes[announcement.get("outcome")] += 1
                if announcement.get("outcome") == "queued":
                    said.append(re.sub(r"^\[tone [a-z-]+\] ", "", announcement["said"]))
        missing = collections.Counter(said) - collections.Counter(transcript_texts(srt))
        print(f"exit status {run.returncode}; --json outcomes {dict(outcomes)}; listed as said {len(said)}, "
              f"said-not-heard {sum(missing.values())} {list(missing)[:5]}")


def wait_for_socket(runtime, deadline):
    while time.monotonic() < deadline:
        found = list(Path(runtime).rglob("control.sock"))
        if found:
            return found[0]
        time.sleep(0.1)
    sys.exit("spoken_contract: the session's control socket never appeared.")


def send(sock_path, line):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(5)
        client.connect(str(sock_path))
        client.sendall((line + "\n").encode())
        return client.recv(65536).decode(errors="replace").strip()


def exit_latency(args):
    for how in ("exit", "assist ctl exit", "SIGTERM", "SIGINT"):
        with tempfile.TemporaryDirectory() as folder:
            env = user_environment(folder)
            process = subprocess.Popen([args.assist, "see", args.video, "--quiet", "--watchdog", "30"], env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            sock = wait_for_socket(env["XDG_RUNTIME_DIR"], time.monotonic() + 120)
            time.sleep(1)
            for question in ("help", "list categories", "tutorial"):
                send(sock, question)
            started = time.monotonic()
            if how == "exit":
                try:
                    send(sock, "exit")
                except OSError:
                    pass
            elif how == "assist ctl exit":
                ctl = subprocess.run([args.assist, "ctl", "exit"], env=env, capture_output=True, text=True)
                started = time.monotonic()   # from the moment the user reads "Goodbye."
                if ctl.stdout.strip() != "Goodbye.":
                    print(f"assist ctl exit answered {ctl.stdout.strip()!r} (status {ctl.returncode})")
            else:
                process.send_signal(getattr(signal, how))
            status = process.wait(timeout=60)
            took = time.monotonic() - started
            left = list(Path(env["XDG_RUNTIME_DIR"]).rglob("control.sock"))
            print(f"{how} after three questions: ended in {took:.2f} s, exit status {status}, "
                  f"control socket {'LEFT BEHIND' if left else 'removed'}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["render", "json", "exit"])
    parser.add_argument("video")
    parser.add_argument("--assist")
    args, rest = parser.parse_known_args()
    args.rest = rest
    args.assist = assist_binary(args.assist)
    {"render": render, "json": json_said, "exit": exit_latency}[args.what](args)


if __name__ == "__main__":
    main()
