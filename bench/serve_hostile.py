#!/usr/bin/env python3
"""Issue 39: `assist serve` under hostile requests, on loopback (127.0.0.1) only.

Starts `assist serve --port 0` with its own user folders, then measures and prints:

  refusal    an unauthenticated POST that announces a body of 1 GB (and one that streams a
             20,000-part body): milliseconds from the end of its headers to the server's status
             line. Target: under 100 ms.
  in-flight  two authenticated 20,000-part bodies sent at once, over and over, while an
             authenticated page (/help) is asked for: its slowest answer. Target: under 1 s.
  idle       how long a connection that sends nothing stays open (the server closes it after
             its idle timeout), and how long one that sends a request head a byte a second does.
  soak       (--soak SECONDS) mixed hostile requests from a few client threads, bounded in count
             (--max-requests) and time, while a normal page is asked for every half second:
             requests sent, pages that failed or took over 1 s, the server's memory (VmRSS)
             through the run, whether it is still running, and how long SIGTERM takes.

Usage: bench/serve_hostile.py [--assist PATH] [--soak SECONDS] [--max-requests N] [--json OUT]
Network traffic goes to 127.0.0.1 only. Not a test: timings depend on the machine.
"""
import argparse
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HOST = "127.0.0.1"


def start_server(assist, folder):
    env = dict(os.environ)
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "XDG_CACHE_HOME"):
        env[name] = os.path.join(folder, name.lower())
        os.makedirs(env[name], exist_ok=True)
    process = subprocess.Popen([assist, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, env=env)
    line = process.stdout.readline().decode()
    start = line.index("http://") + len("http://")
    address, rest = line[start:].split("/?token=", 1)
    token = rest.split(" ", 1)[0]
    port = int(address.rsplit(":", 1)[1])
    return process, port, token


def connect(port, timeout=30):
    sock = socket.create_connection((HOST, port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_status(sock):
    data = b""
    while b"\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.split(b"\r\n", 1)[0].decode(errors="replace")


def read_response(sock):
    """Reads one whole response (Content-Length bodies); returns (status line, body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return (data.split(b"\r\n", 1)[0].decode(errors="replace"), b"")
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return head.split(b"\r\n", 1)[0].decode(errors="replace"), body


def many_parts(count, form_token=None):
    boundary = "----b39"
    parts = []
    if form_token:
        parts.append(f"--{boundary}\r\nContent-Disposition: form-data; name=\"form_token\"\r\n\r\n{form_token}\r\n")
    parts.extend(f"--{boundary}\r\nContent-Disposition: form-data; name=\"f{i}\"\r\n\r\nx\r\n" for i in range(count))
    parts.append(f"--{boundary}--\r\n")
    return boundary, "".join(parts).encode()


def page(port, token, path="/help"):
    """An authenticated GET on a fresh connection; returns (seconds, status line)."""
    started = time.monotonic()
    with connect(port) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nCookie: assist_access={token}\r\nConnection: close\r\n\r\n".encode())
        status, _ = read_response(sock)
    return time.monotonic() - started, status


def refusal_times(port, repeats):
    announced, streamed = [], []
    for _ in range(repeats):
        with connect(port) as sock:
            sock.sendall(f"POST /hearing/prescriptions/import HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                         f"Content-Type: multipart/form-data; boundary=x\r\nContent-Length: {1 << 30}\r\n\r\n".encode())
            started = time.monotonic()
            status = read_status(sock)
            announced.append((time.monotonic() - started, status))
    boundary, body = many_parts(20_000)
    for _ in range(repeats):
        with connect(port) as sock:
            sock.sendall(f"POST /hearing/prescriptions/import HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                         f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {len(body)}\r\n\r\n".encode())
            started = time.monotonic()
            # The body follows at once, from another thread, as a client streaming it would.
            sender = threading.Thread(target=lambda: _send_quietly(sock, body))
            sender.start()
            status = read_status(sock)
            streamed.append((time.monotonic() - started, status))
            sender.join()
    return announced, streamed


def _send_quietly(sock, data):
    try:
        sock.sendall(data)
    except OSError:
        pass


def authenticated_upload(port, token, form_token, body, boundary):
    with connect(port, timeout=120) as sock:
        sock.sendall(f"POST /hearing/prescriptions/import HTTP/1.1\r\nHost: {HOST}:{port}\r\nCookie: assist_access={token}\r\n"
                     f"Origin: http://{HOST}:{port}\r\nContent-Type: multipart/form-data; boundary={boundary}\r\n"
                     f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode())
        _send_quietly(sock, body)
        return read_status(sock)


def form_token_of(port, token):
    with connect(port) as sock:
        sock.sendall(f"GET /hearing HTTP/1.1\r\nHost: {HOST}:{port}\r\nCookie: assist_access={token}\r\nConnection: close\r\n\r\n".encode())
        _, body = read_response(sock)
    text = body.decode(errors="replace")
    marker = 'name="form_token" value="'
    start = text.index(marker) + len(marker)
    return text[start:text.index('"', start)]


def in_flight(port, token, rounds):
    form_token = form_token_of(port, token)
    boundary, body = many_parts(20_000, form_token)
    slowest, statuses, pages = 0.0, set(), []
    stop = threading.Event()

    def uploader():
        while not stop.is_set():
            statuses.add(authenticated_upload(port, token, form_token, body, boundary))

    threads = [threading.Thread(target=uploader) for _ in range(2)]
    for thread in threads:
        thread.start()
    time.sleep(0.2)
    for _ in range(rounds):
        seconds, status = page(port, token)
        pages.append(seconds)
        slowest = max(slowest, seconds)
        time.sleep(0.05)
    stop.set()
    for thread in threads:
        thread.join()
    return slowest, statistics.median(pages), statuses, len(body)


def idle_close_seconds(port):
    started = time.monotonic()
    with connect(port, timeout=120) as sock:
        while sock.recv(4096):
            pass
    return time.monotonic() - started


def slow_head_seconds(port):
    started = time.monotonic()
    request = f"GET /help HTTP/1.1\r\nHost: {HOST}:{port}\r\nX-Slow: " + "a" * 200
    with connect(port, timeout=120) as sock:
        try:
            for byte in request.encode():
                sock.send(bytes([byte]))
                time.sleep(1)
                if time.monotonic() - started > 100:
                    break
            while sock.recv(4096):
                pass
        except OSError:
            pass
    return time.monotonic() - started


def page_behind_silent_connections(port, token, count):
    """Opens `count` connections that send nothing, then loads a page: with the connection cap
    the page waits until the idle timeout has closed enough of them."""
    silent = []
    for _ in range(count):
        try:
            silent.append(connect(port))
        except OSError:
            break
    try:
        seconds, status = page(port, token)
    finally:
        for sock in silent:
            sock.close()
    return seconds, status, len(silent)


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def hostile_request(port, token, form_token, rng):
    """One hostile request of a kind chosen at random; returns its kind."""
    kind = rng.choice(["unauthenticated-1GB", "20000-parts", "bad-host", "open-redirect", "garbage", "huge-header",
                       "idle-then-close", "half-body", "wrong-token", "404"])
    try:
        with connect(port, timeout=30) as sock:
            if kind == "unauthenticated-1GB":
                sock.sendall(f"POST /settings HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Length: {1 << 30}\r\n\r\n".encode() + b"a" * 65536)
                read_status(sock)
            elif kind == "20000-parts":
                boundary, body = many_parts(20_000, form_token)
                sock.sendall(f"POST /hearing/prescriptions/import HTTP/1.1\r\nHost: {HOST}:{port}\r\nCookie: assist_access={token}\r\n"
                             f"Origin: http://{HOST}:{port}\r\nContent-Type: multipart/form-data; boundary={boundary}\r\n"
                             f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
                read_status(sock)
            elif kind == "bad-host":
                sock.sendall(f"GET /help HTTP/1.1\r\nHost: localhost:{port}@evil.example\r\nCookie: assist_access={token}\r\n\r\n".encode())
                read_status(sock)
            elif kind == "open-redirect":
                sock.sendall(f"GET //evil.example/x?token={token} HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode())
                read_status(sock)
            elif kind == "garbage":
                sock.sendall(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4096))))
                read_status(sock)
            elif kind == "huge-header":
                sock.sendall(f"GET /help HTTP/1.1\r\nHost: {HOST}:{port}\r\nX-Big: {'b' * 100_000}\r\n\r\n".encode())
                read_status(sock)
            elif kind == "idle-then-close":
                time.sleep(rng.uniform(0, 2))
            elif kind == "half-body":
                sock.sendall(f"POST /settings HTTP/1.1\r\nHost: {HOST}:{port}\r\nCookie: assist_access={token}\r\n"
                             f"Origin: http://{HOST}:{port}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                             f"Content-Length: 5000\r\n\r\nkey=speech.pitch&value=".encode())
                time.sleep(rng.uniform(0, 2))
            elif kind == "wrong-token":
                sock.sendall(f"GET /settings?token=guess HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode())
                read_status(sock)
            else:
                sock.sendall(f"GET /no/such/page HTTP/1.1\r\nHost: {HOST}:{port}\r\nCookie: assist_access={token}\r\n\r\n".encode())
                read_status(sock)
    except OSError:
        pass
    return kind


def soak(process, port, token, seconds, max_requests, clients):
    form_token = form_token_of(port, token)
    deadline = time.monotonic() + seconds
    sent = [0]
    lock = threading.Lock()
    kinds = {}

    def client(seed):
        rng = random.Random(seed)
        while time.monotonic() < deadline:
            with lock:
                if sent[0] >= max_requests:
                    return
                sent[0] += 1
            kind = hostile_request(port, token, form_token, rng)
            with lock:
                kinds[kind] = kinds.get(kind, 0) + 1

    threads = [threading.Thread(target=client, args=(seed,)) for seed in range(clients)]
    for thread in threads:
        thread.start()
    pages, failed, slow, rss = [], 0, 0, [(0.0, rss_kib(process.pid))]
    started = time.monotonic()
    next_rss = started + 30
    while time.monotonic() < deadline and process.poll() is None:
        try:
            took, status = page(port, token)
            pages.append(took)
            if not status.startswith("HTTP/1.1 200"):
                failed += 1
            elif took > 1:
                slow += 1
        except OSError:
            failed += 1
        if time.monotonic() >= next_rss:
            rss.append((time.monotonic() - started, rss_kib(process.pid)))
            next_rss += 30
        time.sleep(0.5)
    for thread in threads:
        thread.join()
    alive = process.poll() is None
    if alive:
        rss.append((time.monotonic() - started, rss_kib(process.pid)))
    return {"seconds": round(time.monotonic() - started, 1), "hostile_requests": sent[0], "kinds": kinds,
            "pages": len(pages), "pages_failed": failed, "pages_over_1s": slow,
            "page_median_ms": round(1000 * statistics.median(pages), 1) if pages else None,
            "page_max_ms": round(1000 * max(pages), 1) if pages else None,
            "rss_kib": rss, "alive_at_end": alive}


def stop_seconds(process):
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        return None, None
    return time.monotonic() - started, process.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assist", default=".build/debug/assist", help="the assist binary to run")
    parser.add_argument("--repeats", type=int, default=20, help="refusals measured of each kind")
    parser.add_argument("--rounds", type=int, default=40, help="page loads measured while uploads are in flight")
    parser.add_argument("--soak", type=float, default=0, help="seconds of mixed hostile requests (0: no soak)")
    parser.add_argument("--max-requests", type=int, default=200_000, help="the most hostile requests the soak sends")
    parser.add_argument("--clients", type=int, default=4, help="soak client threads")
    parser.add_argument("--skip-idle", action="store_true", help="skip the idle and slow-head measurements (about 20 s)")
    parser.add_argument("--json", help="also write the numbers to this file")
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="serve-hostile-")
    results = {}
    process, port, token = start_server(arguments.assist, folder)
    try:
        announced, streamed = refusal_times(port, arguments.repeats)
        for name, runs in (("unauthenticated, 1 GB announced", announced), ("unauthenticated, 20,000 parts streamed", streamed)):
            times = [1000 * seconds for seconds, _ in runs]
            statuses = sorted({status for _, status in runs})
            results[name] = {"median_ms": round(statistics.median(times), 2), "max_ms": round(max(times), 2), "statuses": statuses}
            print(f"refusal  {name}: median {statistics.median(times):.2f} ms, max {max(times):.2f} ms over {len(times)} ({', '.join(statuses)})")
        slowest, median, statuses, size = in_flight(port, token, arguments.rounds)
        results["page while two 20,000-part bodies are in flight"] = {"max_ms": round(1000 * slowest, 1), "median_ms": round(1000 * median, 1),
                                                                      "upload_statuses": sorted(statuses), "body_bytes": size}
        print(f"in-flight  /help while two authenticated 20,000-part bodies ({size} bytes each) are sent again and again: "
              f"median {1000 * median:.1f} ms, slowest {1000 * slowest:.1f} ms over {arguments.rounds} loads (uploads answered {', '.join(sorted(statuses))})")
        if not arguments.skip_idle:
            idle = idle_close_seconds(port)
            slow = slow_head_seconds(port)
            results["idle connection closed after s"] = round(idle, 2)
            results["byte-a-second request head closed after s"] = round(slow, 2)
            print(f"idle  a silent connection was closed after {idle:.2f} s; a request head sent a byte a second after {slow:.2f} s")
            for count in (200, 300):
                seconds, status, opened = page_behind_silent_connections(port, token, count)
                results[f"page behind {count} silent connections s"] = round(seconds, 2)
                print(f"cap  /help with {opened} silent connections open: answered after {seconds:.2f} s ({status})")
        if arguments.soak > 0:
            outcome = soak(process, port, token, arguments.soak, arguments.max_requests, arguments.clients)
            results["soak"] = outcome
            rss = outcome["rss_kib"]
            print(f"soak  {outcome['seconds']} s, {outcome['hostile_requests']} hostile requests ({', '.join(f'{k} {v}' for k, v in sorted(outcome['kinds'].items()))})")
            print(f"soak  normal page: {outcome['pages']} loads, {outcome['pages_failed']} failed, {outcome['pages_over_1s']} over 1 s, "
                  f"median {outcome['page_median_ms']} ms, slowest {outcome['page_max_ms']} ms")
            print(f"soak  server memory (VmRSS): start {rss[0][1] / 1024:.1f} MiB, after 30 s {rss[1][1] / 1024 if len(rss) > 1 else float('nan'):.1f} MiB, "
                  f"end {rss[-1][1] / 1024:.1f} MiB, highest {max(r for _, r in rss) / 1024:.1f} MiB; still running: {outcome['alive_at_end']}")
        seconds, status = stop_seconds(process)
        results["SIGTERM to exit s"] = None if seconds is None else round(seconds, 3)
        results["exit status"] = status
        print(f"stop  SIGTERM to exit: {'did not exit in 60 s' if seconds is None else f'{1000 * seconds:.0f} ms'}, exit status {status}")
    finally:
        if process.poll() is None:
            process.kill()
        shutil.rmtree(folder, ignore_errors=True)
    if arguments.json:
        with open(arguments.json, "w") as out:
            json.dump(results, out, indent=2)


if __name__ == "__main__":
    sys.exit(main())
