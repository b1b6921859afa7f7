#include <openvino/c/openvino.h>
