#include <turbojpeg.h>
/* LIBJPEG_TURBO_VERSION_NUMBER: TurboJPEG has no run-time version call (see LinkedLibrary+Imaging.swift). */
#include <jconfig.h>
