#include "hal/resource.h"

// The external definition of the header's inline function (size builds
// call it; speed builds inline it).
extern inline void grt_hal_resource_release(void* any_resource);
