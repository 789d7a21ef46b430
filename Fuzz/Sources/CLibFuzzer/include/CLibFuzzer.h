// libFuzzer's driver entry (compiler-rt, linked by -sanitize=fuzzer): runs the fuzzing loop with the
// command line and the target's callback. The fuzz targets call it from their own entry point because
// SwiftPM links an executable's `main` to `<Module>_main` (see FuzzSupport/FuzzInput.swift).
#ifndef C_LIBFUZZER_H
#define C_LIBFUZZER_H
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
