# Sourced by the other scripts: the build environment that makes .deps visible to SwiftPM.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PKG_CONFIG_PATH="$root/.deps/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# The rpaths make the built binaries find OpenVINO and ONNX Runtime without LD_LIBRARY_PATH.
swift_link_flags=(-Xlinker -rpath -Xlinker "$root/.deps/openvino/openvino/libs" -Xlinker -rpath -Xlinker "$root/.deps/onnxruntime/lib")
