// giflib 5 (Debian libgif-dev) for Swift: the animated GIF writer behind Imaging's GIFAnimationEncoder.
#ifndef LOOKAROUND_CGIF_SHIM_H
#define LOOKAROUND_CGIF_SHIM_H
#include <gif_lib.h>
#endif
