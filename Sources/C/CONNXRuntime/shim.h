#include <onnxruntime_c_api.h>
