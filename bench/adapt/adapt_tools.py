#!/usr/bin/env python3
"""Helpers for bench/adapt/adapt.sh (acoustic-model adaptation, issue 15 step 4).

Subcommands:
  phrases DEV_FILE DICT EXCLUDE_FILE COUNT OUT   adaptation sentences: lines of a labelled command set
                                                 ("text => intent"), every word in the pronunciation
                                                 dictionary, none equal to a line of EXCLUDE_FILE (the
                                                 benchmark's test phrases), COUNT of them spread over the file
  mixw SENDUMP OUT                               the model's quantised mixture weights (pocketsphinx
                                                 sendump, 8-bit, -log base 1.0001 >> 10) as a Sphinx-3
                                                 float mixture_weights file, which bw and map_adapt read
  corpus CLEAN_DIR PHRASES VOICE_INDEX OUT_DIR NAME SEED
                                                 16 kHz copies of one voice's clean sentences (as
                                                 `assist bench voice --keep-audio` wrote them), plus one
                                                 white-noise and one babble copy of each at an SNR drawn
                                                 from 10, 20, 30 dB; writes NAME.fileids and NAME.transcription

Only numpy and the standard library; sox converts the synthesised WAV files to 16 kHz 16-bit mono.
"""
import os
import re
import struct
import subprocess
import sys
import wave

import numpy as np

WORD = re.compile(r"[a-z']+")


def normalise(text):
    """Lower case, punctuation dropped: the words a synthesiser says for the text."""
    return " ".join(WORD.findall(text.lower().replace("’", "'")))


def dictionary_words(path):
    words = set()
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if line.strip():
                words.add(line.split()[0].split("(")[0].lower())
    return words


def phrases(dev_file, dictionary, exclude_file, count, out):
    known = dictionary_words(dictionary)
    excluded = set()
    with open(exclude_file, encoding="utf-8") as handle:
        excluded = {normalise(line) for line in handle if line.strip()}
    usable = []
    with open(dev_file, encoding="utf-8") as handle:
        for raw in handle:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            text = line.split("=>")[0]
            if re.search(r"\d", text):
                continue  # numbers are said in several ways; the transcript would be a guess
            words = normalise(text)
            if not words or words in excluded or any(w not in known for w in words.split()):
                continue
            if words not in usable:
                usable.append(words)
    step = max(1, len(usable) / max(1, count))
    chosen = [usable[int(i * step)] for i in range(min(count, len(usable)))]
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("\n".join(chosen) + "\n")
    print(f"{len(chosen)} adaptation sentences of {len(usable)} usable ({out})")


def sendump_to_mixw(sendump, out):
    data = open(sendump, "rb").read()
    offset = 0

    def int32():
        nonlocal offset
        value = struct.unpack_from("<i", data, offset)[0]
        offset += 4
        return value

    def string():
        nonlocal offset
        length = int32()
        text = data[offset:offset + length]
        offset += length
        return length, text

    string()  # title
    n_feat = n_density = n_sen = 0
    clusters, bits = 0, 8
    while True:
        length, text = string()
        if length == 0:
            break
        words = text.rstrip(b"\0").decode("ascii", "replace").split()
        if len(words) == 2 and words[1].isdigit():
            value = int(words[1])
            n_feat = value if words[0] == "feature_count" else n_feat
            n_density = value if words[0] == "mixture_count" else n_density
            n_sen = value if words[0] == "model_count" else n_sen
            clusters = value if words[0] == "cluster_count" else clusters
            bits = value if words[0] == "cluster_bits" else bits
    if clusters != 0 or bits != 8:
        sys.exit(f"{sendump}: clustered or {bits}-bit mixture weights are not handled here")
    if n_sen == 0:
        n_density, n_sen = int32(), int32()
    expected = n_feat * n_density * n_sen
    if len(data) - offset != expected:
        sys.exit(f"{sendump}: {len(data) - offset} bytes of weights, expected {expected}")
    quantised = np.frombuffer(data, dtype=np.uint8, count=expected, offset=offset).reshape(n_feat, n_density, n_sen)
    # -log base 1.0001 of the weight, shifted right by 10 bits (pocketsphinx's SENSCR_SHIFT).
    weights = np.power(1.0001, -(quantised.astype(np.float64) * 1024.0))
    weights = weights.transpose(2, 0, 1)  # senone, stream, density: the Sphinx-3 order
    weights /= weights.sum(axis=2, keepdims=True)
    with open(out, "wb") as handle:
        header = b"s3\nversion 1.0\n"
        # The data after the byte-order word must start 4-byte aligned: pad the "endhdr" line.
        pad = (4 - (len(header) + len(b"endhdr\n")) % 4) % 4
        handle.write(header + b" " * pad + b"endhdr\n")
        handle.write(struct.pack("<i", 0x11223344))
        handle.write(struct.pack("<4i", n_sen, n_feat, n_density, weights.size))
        handle.write(weights.astype("<f4").tobytes())
    print(f"mixture weights {n_sen} senones x {n_feat} streams x {n_density} densities -> {out}")


def read_wav16k(path, scratch):
    subprocess.run(["sox", path, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", scratch], check=True)
    with wave.open(scratch, "rb") as handle:
        return np.frombuffer(handle.readframes(handle.getnframes()), dtype="<i2").astype(np.float64) / 32768


def write_wav16k(path, samples):
    clipped = np.clip(samples, -1, 32767 / 32768)
    with wave.open(path, "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(16000)
        handle.writeframes((clipped * 32768).astype("<i2").tobytes())


def active_rms(speech):
    """RMS over 10 ms frames within 40 dB of the loudest (as the benchmark's NoiseMixer)."""
    frames = speech[: len(speech) // 160 * 160].reshape(-1, 160)
    powers = (frames ** 2).mean(axis=1)
    active = powers[powers >= powers.max() * 1e-4] if len(powers) else powers
    return float(np.sqrt(active.mean())) if len(active) else 0.0


def corpus(clean_dir, phrase_file, voice_index, out_dir, name, seed):
    sentences = [line.strip() for line in open(phrase_file, encoding="utf-8") if line.strip()]
    rng = np.random.default_rng(int(seed))
    os.makedirs(os.path.join(out_dir, "wav"), exist_ok=True)
    scratch = os.path.join(out_dir, f"scratch-{name}.wav")
    pad = np.zeros(4800)  # 0.3 s before and after: silence (or noise) the decoder sees as SIL
    clean = []
    for index, _ in enumerate(sentences):
        source = os.path.join(clean_dir, f"voice-{voice_index}-command-{index}-rate-1.0.wav")
        clean.append(np.concatenate([pad, read_wav16k(source, scratch), pad]))
    os.remove(scratch)
    fileids, transcripts = [], []
    for index, (text, speech) in enumerate(zip(sentences, clean)):
        level = active_rms(speech)
        versions = [("clean", speech)]
        for noise in ("white", "babble"):
            snr = float(rng.choice([10.0, 20.0, 30.0]))
            if noise == "white":
                sound = rng.standard_normal(len(speech))
            else:  # six other sentences of the corpus at once, each from a random point
                sound = np.zeros(len(speech))
                for other in rng.choice(len(clean), size=6, replace=len(clean) < 6):
                    talker = clean[other]
                    start = int(rng.integers(len(talker)))
                    sound += np.resize(np.roll(talker, -start), len(speech))
            gain = level / 10 ** (snr / 20) / max(np.sqrt((sound ** 2).mean()), 1e-12)
            versions.append((f"{noise}{int(snr)}", speech + gain * sound))
        for label, audio in versions:
            fileid = f"{name}-{index:03d}-{label}"
            write_wav16k(os.path.join(out_dir, "wav", fileid + ".wav"), audio)
            fileids.append(fileid)
            transcripts.append(f"<s> {text} </s> ({fileid})")
    with open(os.path.join(out_dir, f"{name}.fileids"), "w") as handle:
        handle.write("\n".join(f"wav/{f}" for f in fileids) + "\n")
    with open(os.path.join(out_dir, f"{name}.transcription"), "w") as handle:
        handle.write("\n".join(transcripts) + "\n")
    print(f"{name}: {len(fileids)} utterances ({len(sentences)} sentences, clean + white + babble)")


if __name__ == "__main__":
    commands = {"phrases": (phrases, 5), "mixw": (sendump_to_mixw, 2), "corpus": (corpus, 6)}
    if len(sys.argv) < 2 or sys.argv[1] not in commands or len(sys.argv) - 2 != commands[sys.argv[1]][1]:
        sys.exit(__doc__)
    function, _ = commands[sys.argv[1]]
    arguments = sys.argv[2:]
    if sys.argv[1] == "phrases":
        arguments[3] = int(arguments[3])
    function(*arguments)
