#ifndef LOOKAROUND_OPENCV_DNN_SHIM_H
#define LOOKAROUND_OPENCV_DNN_SHIM_H
// Public header of the C shim over OpenCV's DNN module (Debian's libopencv-dnn 4.6), used by the
// Privacy module to run its detectors (CenterFace, a DB text detector) on the CPU.
//
// Why this target exists: OpenCV's API is C++ (cv::dnn::Net, cv::Mat, exceptions); Swift cannot catch
// a C++ exception, and the project keeps C++ out of its Swift modules. Every OpenCV call and every
// catch lives in opencv_dnn_shim.cpp; this header exposes plain C types only. Decoding, pre- and
// post-processing (heatmaps, boxes, non-maximum suppression) are the Swift module's, not this shim's.
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A loaded network (opaque).
typedef struct lk_dnn_net lk_dnn_net;

/// Loads an ONNX model held in memory (`bytes`, `length`). `fuse_layers` 0 turns off OpenCV's layer
/// fusion (for a model whose fused layers give other outputs than unfused ones). Returns NULL on
/// failure, with OpenCV's message in `err`.
lk_dnn_net *lk_dnn_load_onnx(const uint8_t *bytes, size_t length, int fuse_layers, char *err, size_t err_len);

/// Frees a network from lk_dnn_load_onnx (NULL is ignored).
void lk_dnn_free(lk_dnn_net *net);

/// Sets the number of threads OpenCV's parallel loops use (process-wide); 0 restores OpenCV's default.
void lk_dnn_set_threads(int threads);

/// Runs `net` on one image: `input` is a float32 tensor of shape 1 × channels × height × width (NCHW,
/// row-major). For each of the `output_count` names in `output_names` (NULL: the network's single
/// unconnected output), `outputs[i]` receives a malloc'd copy of that output (free with
/// lk_dnn_free_output) and `output_shapes[4*i…4*i+3]` its shape (N, C, H, W; missing trailing
/// dimensions are 1). Returns 0, or -1 with OpenCV's message in `err` (no output is then allocated).
/// A network is not safe for concurrent calls: callers serialise them.
int lk_dnn_forward(lk_dnn_net *net, const float *input, int channels, int height, int width,
                   int output_count, const char *const *output_names,
                   float **outputs, int *output_shapes, char *err, size_t err_len);

/// Frees an output from lk_dnn_forward.
void lk_dnn_free_output(float *output);

/// OpenCV's version string ("4.6.0"), for `lookaround --version`.
const char *lk_dnn_opencv_version(void);

#ifdef __cplusplus
}
#endif

#endif
