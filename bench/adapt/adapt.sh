#!/usr/bin/env bash
# Adapts pocketsphinx's en-us acoustic model to synthetic speech in noise with sphinxtrain
# (issue 15, step 4): MLLR (one global mean transform, mllr_solve) and MAP (map_adapt), per set
# of adaptation voices, so that each adapted model can be measured on a voice it never heard.
#
#   bench/adapt/adapt.sh [OUT]        (default OUT: /bench-out/adapt; nothing is written in the repository)
#
# Adaptation speech: sentences of bench/commands/dev-commands.txt (written independently of the
# command language; none equal to an example of the language file or a phrase the benchmark says, none with a
# digit or a word missing from the dictionary), said by festival slt, espeak-ng en-us and
# espeak-ng en-gb (the benchmark's own synthesis, `assist bench voice --keep-audio`), each clean,
# with white noise and with six-talker babble at an SNR drawn from 10, 20 and 30 dB.
# Per voice, bw accumulates statistics once; each adaptation set combines two voices:
#   OUT/sets/no-espeak-en-us  (festival + espeak-ng en-gb)  -> measure on espeak-ng en-us
#   OUT/sets/no-espeak-en-gb  (festival + espeak-ng en-us)  -> measure on espeak-ng en-gb
#   OUT/sets/no-festival      (espeak-ng en-us + en-gb)     -> measure on festival slt
#   OUT/sets/all              (all three)                   -> measure on recorded human speech
# and each set has mllr_matrix (pocketsphinx -mllr) and map/ (a whole model: -hmm, or -mean,
# -var, -tmat, -sendump). Needs Debian's sphinxtrain, sphinxbase-utils (sphinx_fe), pocketsphinx
# (pocketsphinx_mdef_convert) and sox; downloads nothing. Measuring: see BENCHMARKS.md,
# "Acoustic-model adaptation (MLLR/MAP)".
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-/bench-out/adapt}
SENTENCES=${ADAPT_SENTENCES:-60}
BASE=/usr/share/pocketsphinx/model/en-us
HMM=$BASE/en-us
DICT=$BASE/cmudict-en-us.dict
ST=/usr/lib/sphinxtrain
TOOLS="python3 bench/adapt/adapt_tools.py"
ASSIST=${ASSIST:-scripts/assist}  # e.g. ASSIST=.build/debug/assist to skip the release build
step() { echo "[adapt $(date -u +%H:%M:%S)] $*"; }
for tool in "$ST/bw" "$ST/mllr_solve" "$ST/map_adapt" "$ST/mk_s2sendump" /usr/bin/sphinx_fe /usr/bin/pocketsphinx_mdef_convert /usr/bin/sox; do
    [[ -x $tool ]] || { echo "adapt: $tool is missing; install Debian's sphinxtrain, sphinxbase-utils, pocketsphinx and sox." >&2; exit 69; }
done
mkdir -p "$OUT/model" "$OUT/corpus" "$OUT/accum" "$OUT/sets"

step "base model with float mixture weights (Debian ships only the quantised sendump)"
for f in means variances transition_matrices feat.params noisedict mdef sendump; do ln -sf "$HMM/$f" "$OUT/model/$f"; done
[[ -s $OUT/model/mdef.txt ]] || pocketsphinx_mdef_convert -text "$HMM/mdef" "$OUT/model/mdef.txt" > "$OUT/mdef.log" 2>&1
[[ -s $OUT/model/mixture_weights ]] || $TOOLS mixw "$HMM/sendump" "$OUT/model/mixture_weights"

step "the benchmark's test phrases (44 clean trials with festival), to keep them out of the adaptation"
[[ -s $OUT/test-phrases.json ]] || $ASSIST bench voice --voices festival --conditions clean --rates 1.0 --decode grammar \
    --skip-human --json > "$OUT/test-phrases.json"
step "adaptation sentences"
OUT=$OUT python3 - > "$OUT/language-examples.txt" <<'EOF'
import json, os
language = json.load(open("Sources/Commands/Languages/en.json"))
for intent in language["intents"].values():
    for text in [intent.get("example", "")] + intent.get("examples", []):
        print(text)
for trial in json.load(open(os.path.join(os.environ["OUT"], "test-phrases.json")))["trials"]:
    print(trial["said"])
EOF
$TOOLS phrases bench/commands/dev-commands.txt "$DICT" "$OUT/language-examples.txt" "$SENTENCES" "$OUT/sentences.new"
# Kept unchanged (and its date with it) when the same sentences come out, so nothing is redone.
cmp -s "$OUT/sentences.new" "$OUT/sentences.txt" && rm "$OUT/sentences.new" || mv "$OUT/sentences.new" "$OUT/sentences.txt"

step "synthesis by the benchmark's voices (clean; the grammar decoding it also does is ignored)"
if [[ ! -s $OUT/clean/voice-2-command-0-rate-1.0.wav || $OUT/sentences.txt -nt $OUT/clean ]]; then
    rm -rf "$OUT/clean"
    $ASSIST bench voice --phrases-per-command 0 --non-commands "$OUT/sentences.txt" \
        --voices festival,espeak-en-us,espeak-en-gb --conditions clean --rates 1.0 --decode grammar --skip-human \
        --keep-audio "$OUT/clean" > "$OUT/synthesis-baseline.txt"
fi

index=0
for voice in festival espeak-en-us espeak-en-gb; do
    step "$voice: noisy copies, features (sphinx_fe), bw statistics"
    if [[ ! -s $OUT/accum/$voice/gauden_counts || $OUT/sentences.txt -nt $OUT/accum/$voice/gauden_counts ]]; then
        $TOOLS corpus "$OUT/clean" "$OUT/sentences.txt" "$index" "$OUT/corpus" "$voice" "$((index + 1))"
        sphinx_fe -argfile "$HMM/feat.params" -samprate 16000 -c "$OUT/corpus/$voice.fileids" \
            -di "$OUT/corpus" -do "$OUT/corpus" -ei wav -eo mfc -mswav yes > "$OUT/corpus/$voice.fe.log" 2>&1
        mkdir -p "$OUT/accum/$voice"
        "$ST/bw" -hmmdir "$OUT/model" -moddeffn "$OUT/model/mdef.txt" -ts2cbfn .ptm. -feat 1s_c_d_dd \
            -svspec 0-12/13-25/26-38 -cmn current -agc none -dictfn "$DICT" -fdictfn "$HMM/noisedict" \
            -ctlfn "$OUT/corpus/$voice.fileids" -lsnfn "$OUT/corpus/$voice.transcription" \
            -cepdir "$OUT/corpus" -cepext mfc -accumdir "$OUT/accum/$voice" > "$OUT/accum/$voice.bw.log" 2>&1
        grep -E "overall>|WARN|ERROR" "$OUT/accum/$voice.bw.log" | tail -3 || true
    fi
    index=$((index + 1))
done

adapt_set() {  # name voice voice...
    local set=$OUT/sets/$1 name=$1
    shift
    local accum
    accum=$(printf "$OUT/accum/%s," "$@")
    accum=${accum%,}
    step "set $name: mllr_solve and map_adapt on $*"
    mkdir -p "$set/map"
    "$ST/mllr_solve" -meanfn "$HMM/means" -varfn "$HMM/variances" -outmllrfn "$set/mllr_matrix" \
        -accumdir "$accum" > "$set/mllr.log" 2>&1
    for f in feat.params noisedict mdef; do cp "$HMM/$f" "$set/map/$f"; done
    "$ST/map_adapt" -moddeffn "$OUT/model/mdef.txt" -ts2cbfn .ptm. -meanfn "$HMM/means" -varfn "$HMM/variances" \
        -mixwfn "$OUT/model/mixture_weights" -tmatfn "$HMM/transition_matrices" -accumdir "$accum" \
        -mapmeanfn "$set/map/means" -mapvarfn "$set/map/variances" -mapmixwfn "$set/map/mixture_weights" \
        -maptmatfn "$set/map/transition_matrices" > "$set/map.log" 2>&1
    "$ST/mk_s2sendump" -pocketsphinx yes -moddeffn "$OUT/model/mdef.txt" -mixwfn "$set/map/mixture_weights" \
        -sendumpfn "$set/map/sendump" > "$set/sendump.log" 2>&1
    rm -f "$set/map/mixture_weights"  # pocketsphinx reads the sendump; the float copy is 8 MB
}
adapt_set no-espeak-en-us festival espeak-en-gb
adapt_set no-espeak-en-gb festival espeak-en-us
adapt_set no-festival espeak-en-us espeak-en-gb
adapt_set all festival espeak-en-us espeak-en-gb  # what the product would use; measured on human speech only
step "done: $OUT/sets/*/mllr_matrix and $OUT/sets/*/map"
