// The C shim over OpenCV's DNN module: see include/opencv_dnn_shim.h for why it exists. Every OpenCV
// call is inside a try block here, so no C++ exception reaches Swift.
#include "opencv_dnn_shim.h"

#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/dnn.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

struct lk_dnn_net {
    cv::dnn::Net net;
};

static void lk_copy_error(const char *message, char *err, size_t err_len) {
    if (err && err_len > 0) std::snprintf(err, err_len, "%s", message ? message : "unknown OpenCV error");
}

extern "C" lk_dnn_net *lk_dnn_load_onnx(const uint8_t *bytes, size_t length, int fuse_layers, char *err, size_t err_len) {
    try {
        lk_dnn_net *wrapper = new lk_dnn_net();
        wrapper->net = cv::dnn::readNetFromONNX(reinterpret_cast<const char *>(bytes), length);
        if (wrapper->net.empty()) {
            delete wrapper;
            lk_copy_error("OpenCV read the model but it holds no layers", err, err_len);
            return nullptr;
        }
        wrapper->net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        wrapper->net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        wrapper->net.enableFusion(fuse_layers != 0);
        return wrapper;
    } catch (const std::exception &e) {  // cv::Exception is one
        lk_copy_error(e.what(), err, err_len);
    } catch (...) {
        lk_copy_error("unknown exception while reading the model", err, err_len);
    }
    return nullptr;
}

extern "C" void lk_dnn_free(lk_dnn_net *net) { delete net; }

extern "C" void lk_dnn_set_threads(int threads) {
    try {
        cv::setNumThreads(threads > 0 ? threads : -1);
    } catch (...) {
    }
}

extern "C" int lk_dnn_forward(lk_dnn_net *net, const float *input, int channels, int height, int width,
                              int output_count, const char *const *output_names,
                              float **outputs, int *output_shapes, char *err, size_t err_len) {
    if (!net || !input || channels <= 0 || height <= 0 || width <= 0 || output_count <= 0) {
        lk_copy_error("bad arguments to lk_dnn_forward", err, err_len);
        return -1;
    }
    for (int i = 0; i < output_count; i++) outputs[i] = nullptr;
    try {
        int sizes[4] = {1, channels, height, width};
        // The Mat wraps the caller's buffer (no copy); setInput copies it into the network's blob.
        cv::Mat blob(4, sizes, CV_32F, const_cast<float *>(input));
        net->net.setInput(blob);
        std::vector<cv::Mat> results;
        if (output_names) {
            std::vector<cv::String> names;
            for (int i = 0; i < output_count; i++) names.emplace_back(output_names[i]);
            net->net.forward(results, names);
        } else {
            results.push_back(net->net.forward());
        }
        if ((int)results.size() != output_count) {
            lk_copy_error("the network returned another number of outputs than asked for", err, err_len);
            return -1;
        }
        for (int i = 0; i < output_count; i++) {
            cv::Mat out = results[i].isContinuous() ? results[i] : results[i].clone();
            if (out.type() != CV_32F) out.convertTo(out, CV_32F);
            int dims[4] = {1, 1, 1, 1};
            for (int d = 0; d < out.dims && d < 4; d++) dims[d] = out.size[d];
            size_t count = out.total();
            float *copy = static_cast<float *>(std::malloc(count * sizeof(float)));
            if (!copy) {
                for (int j = 0; j < i; j++) { std::free(outputs[j]); outputs[j] = nullptr; }
                lk_copy_error("out of memory copying the network's output", err, err_len);
                return -1;
            }
            std::memcpy(copy, out.ptr<float>(), count * sizeof(float));
            outputs[i] = copy;
            for (int d = 0; d < 4; d++) output_shapes[4 * i + d] = dims[d];
        }
        return 0;
    } catch (const std::exception &e) {  // cv::Exception is one
        lk_copy_error(e.what(), err, err_len);
    } catch (...) {
        lk_copy_error("unknown exception while running the network", err, err_len);
    }
    for (int i = 0; i < output_count; i++) { std::free(outputs[i]); outputs[i] = nullptr; }
    return -1;
}

extern "C" void lk_dnn_free_output(float *output) { std::free(output); }

extern "C" const char *lk_dnn_opencv_version(void) { return CV_VERSION; }
