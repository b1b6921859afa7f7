#!/usr/bin/env bash
# Measures bench/adapt/adapt.sh's adapted models against the unadapted en-us model, each on the
# voice its adaptation never heard (issue 15, step 4): the benchmark's 44 commands (the first
# phrasing of each intent, never an adaptation sentence) by the grammar path, clean and with
# white and babble noise at --snr, and the held-out non-commands clean. Then prints the table.
#
#   bench/adapt/measure.sh [OUT] [SNR]     (defaults: /bench-out/adapt, 20)
#   ASSIST=.build/debug/assist bench/adapt/measure.sh     (skip the release build scripts/assist does)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-/bench-out/adapt}
SNR=${2:-20}
ASSIST=${ASSIST:-scripts/assist}
RESULTS=$OUT/results
mkdir -p "$RESULTS"
declare -A HELD_OUT_SET=([espeak-en-us]=no-espeak-en-us [espeak-en-gb]=no-espeak-en-gb [festival]=no-festival)

options_for() {  # model set -> pocketsphinx options
    local set=$OUT/sets/$2
    case $1 in
        baseline) ;;
        mllr) echo "--decoder-option=-mllr=$set/mllr_matrix" ;;
        map) echo "--decoder-option=-mean=$set/map/means --decoder-option=-var=$set/map/variances" \
                  "--decoder-option=-tmat=$set/map/transition_matrices --decoder-option=-sendump=$set/map/sendump" ;;
    esac
}

for voice in ${VOICES:-espeak-en-us espeak-en-gb festival}; do
    for model in ${MODELS:-baseline mllr map}; do
        result=$RESULTS/$model-$voice-snr$SNR.json
        [[ -s $result ]] && continue
        echo "[measure $(date -u +%H:%M:%S)] $model on $voice"
        # shellcheck disable=SC2046
        $ASSIST bench voice --voices "$voice" --conditions clean,white,babble --snr "$SNR" --rates 1.0 --decode grammar \
            --skip-human --json $(options_for "$model" "${HELD_OUT_SET[$voice]}") > "$result.tmp"
        mv "$result.tmp" "$result"
        none=$RESULTS/$model-$voice-none.json
        if [[ ! -s $none ]]; then
            # shellcheck disable=SC2046
            $ASSIST bench voice --voices "$voice" --phrases-per-command 0 --non-commands bench/commands/held-out-none.txt \
                --conditions clean --rates 1.0 --decode grammar --skip-human --json $(options_for "$model" "${HELD_OUT_SET[$voice]}") > "$none.tmp"
            mv "$none.tmp" "$none"
        fi
    done
done
python3 bench/adapt/adapt_report.py "$RESULTS" "$SNR"
