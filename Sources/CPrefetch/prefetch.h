#ifndef LOOKAROUND_PREFETCH_H
#define LOOKAROUND_PREFETCH_H
// A software prefetch hint, the one thing Swift has no intrinsic for: a one-header module that any
// target may declare (Reprojection's view renderer and Catalog's scene query index do), inlined where it is called.

/// Hints that the cache line holding `address` will be read soon (into all cache levels). The view
/// renderer's source reads follow a curve through the panorama that hardware prefetchers cannot predict.
static inline void lk_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
