/* Surface objects and references, as AMD's hip/surface_types.h defines
 * them. Types only. */
#ifndef STREAMHAL_HIP_SURFACE_TYPES_H_
#define STREAMHAL_HIP_SURFACE_TYPES_H_

#include "hip/driver_types.h"

struct __hip_surface;
typedef struct __hip_surface* hipSurfaceObject_t;

struct surfaceReference {
  hipSurfaceObject_t surfaceObject;
};

enum hipSurfaceBoundaryMode {
  hipBoundaryModeZero = 0,
  hipBoundaryModeTrap = 1,
  hipBoundaryModeClamp = 2
};

#endif /* STREAMHAL_HIP_SURFACE_TYPES_H_ */
