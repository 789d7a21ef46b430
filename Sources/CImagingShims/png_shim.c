#include "imaging_shims.h"
