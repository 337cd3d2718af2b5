// The legacy execution-control calls (cuFuncSetBlockShape, cuParamSet*,
// cuLaunch, cuLaunchGrid, cuLaunchGridAsync): core/legacy_launch.h keeps the
// per-function state and launches through the ordinary launch path.
#include "core/legacy_launch.h"

#include <cuda.h>

#include "core/handle.h"
#include "result.h"

using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;

extern "C" {

CUresult cuFuncSetBlockShape(CUfunction hfunc, int x, int y, int z) {
  return ToCUresult(streamhal::FuncSetBlockShape(HandleValue(hfunc), x, y, z));
}

CUresult cuFuncSetSharedSize(CUfunction hfunc, unsigned int bytes) {
  return ToCUresult(streamhal::FuncSetSharedSize(HandleValue(hfunc), bytes));
}

CUresult cuParamSetSize(CUfunction hfunc, unsigned int numbytes) {
  return ToCUresult(streamhal::ParamSetSize(HandleValue(hfunc), numbytes));
}

CUresult cuParamSeti(CUfunction hfunc, int offset, unsigned int value) {
  return ToCUresult(
      streamhal::ParamSet(HandleValue(hfunc), offset, &value, sizeof(value), "cuParamSeti"));
}

CUresult cuParamSetf(CUfunction hfunc, int offset, float value) {
  return ToCUresult(
      streamhal::ParamSet(HandleValue(hfunc), offset, &value, sizeof(value), "cuParamSetf"));
}

CUresult cuParamSetv(CUfunction hfunc, int offset, void* ptr, unsigned int numbytes) {
  return ToCUresult(streamhal::ParamSet(HandleValue(hfunc), offset, ptr, numbytes, "cuParamSetv"));
}

CUresult cuLaunch(CUfunction f) {
  return ToCUresult(streamhal::LaunchGrid(HandleValue(f), 1, 1, 0, "cuLaunch"));
}

CUresult cuLaunchGrid(CUfunction f, int grid_width, int grid_height) {
  return ToCUresult(
      streamhal::LaunchGrid(HandleValue(f), grid_width, grid_height, 0, "cuLaunchGrid"));
}

CUresult cuLaunchGridAsync(CUfunction f, int grid_width, int grid_height, CUstream hStream) {
  return ToCUresult(streamhal::LaunchGrid(HandleValue(f), grid_width, grid_height,
                                          HandleValue(hStream), "cuLaunchGridAsync"));
}

}  // extern "C"
