// Intel Embree 3 (Debian libembree-dev), the peer ray engine the Benchmarks measure our BVH against.
// Debian ships no pkg-config file for it, so the module map links it by name.
#include <embree3/rtcore.h>
