#ifndef LOOKAROUND_IMAGING_SHIMS_H
#define LOOKAROUND_IMAGING_SHIMS_H
// Public header of the tiny C target: plain C types only, so Swift never sees libpng's structs twice.
#include <stddef.h>
#include <stdint.h>
#endif
