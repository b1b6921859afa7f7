#!/usr/bin/env bash
# Builds the part of openMHA (https://github.com/HoerTech-gGmbH/openMHA, AGPL-3.0) that the side-by-side
# comparison needs, OUTSIDE this repository (nothing of it is committed or linked into AssistiveKit):
# the `mha` command-line host, its file I/O library (MHAIOFile), and the plugins of openMHA's own
# dynamic-compression example: transducers, overlapadd, mhachain, fftfilterbank, dc, combinechannels.
# Building all of openMHA takes far longer on a small machine; these are all the comparison loads.
#
# Usage: bench/openmha/build_peer.sh OPENMHA_SOURCE [BUILD_DIR=/work/openmha-build]
#   OPENMHA_SOURCE: a clone of openMHA (release 4.18.0 was used: commit b8c8bf61) or a bare git dir.
#   ASIO_SOURCE (environment, optional): a clone of https://github.com/chriskohlhoff/asio (1.38.2 was used); the `mha`
#   host's TCP server includes its headers (openMHA's own build would clone it from GitHub).
# Needs: g++, make, libsndfile1-dev (already in scripts/setup). Runs at nice 19, one job at a time.
# Afterwards: source BUILD_DIR/env.sh; mha ? cmd=quit
set -euo pipefail
src="${1:?usage: build_peer.sh OPENMHA_SOURCE [BUILD_DIR]}"
out="${2:-/work/openmha-build}"
asio="${ASIO_SOURCE:-/work/.mirror/chriskohlhoff+asio/repo}"
plugins=(io transducers overlapadd mhachain fftfilterbank dc combinechannels)
mkdir -p "$out"
if [ ! -f "$out/configure" ]; then
  paths=(configure Makefile magic.mk rules.mk version external_libs mha/libmha mha/frameworks mha/tools/get_git_commit_hash.sh
         mha/plugins/Makefile mha/plugins/plugin.mk)
  for p in "${plugins[@]}"; do paths+=("mha/plugins/$p"); done
  git -C "$src" archive HEAD "${paths[@]}" | tar -x -C "$out"
fi
cd "$out"
# Only the file host: no JACK/ALSA/OSC/LSL/Eigen/Torch back-ends. configure writes config.mk and then
# exits 1 because it lists those libraries as missing; that is expected here.
[ -f config.mk ] || ./configure --with-jack=no --with-alsa=no --with-osc=no --with-lsl=no --with-eigen=no --with-torch=no || true
[ -f config.mk ] || { echo "openMHA's configure wrote no config.mk" >&2; exit 1; }
build_dir=$(make -s -f - print <<<'include config.mk
include magic.mk
print: ; @echo $(BUILD_DIR)')
mkdir -p "external_libs/$build_dir/include"
if [ ! -f "external_libs/$build_dir/network-asio.is_installed" ]; then
  git -C "$asio" archive HEAD include | tar -x -C "external_libs/$build_dir/include" --strip-components=1
  touch "external_libs/$build_dir/network-asio.is_installed"
fi
nice -n 19 make -C external_libs "$build_dir/fftw.is_installed"
nice -n 19 make -C mha/libmha
nice -n 19 make -C mha/frameworks "$build_dir/mha"
# Of the I/O libraries only the file one (the others need sound hardware or servers).
nice -n 19 make -C mha/plugins/io PLUGINS=MHAIOFile
for p in "${plugins[@]:1}"; do nice -n 19 make -C "mha/plugins/$p"; done
lib="$out/mha/libmha/$build_dir"
# MHA_LIBRARY_PATH is one folder, not a list: gather the plugins there.
mkdir -p "$out/plugins"
for p in "${plugins[@]}"; do ln -sf "$out/mha/plugins/$p/$build_dir/"*.so "$out/plugins/"; done
cat > env.sh <<ENV
export PATH="$out/mha/frameworks/$build_dir:\$PATH"
export LD_LIBRARY_PATH="$lib:\${LD_LIBRARY_PATH:-}"
export MHA_LIBRARY_PATH="$out/plugins"
ENV
echo "openMHA peer built in $out (source env.sh there)"
