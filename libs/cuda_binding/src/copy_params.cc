#include "copy_params.h"

#include <cstdint>

#include "core/handle.h"
#include "core/status.h"

namespace streamhal::cuda {
namespace {

CopyEnd ToEnd(CUmemorytype type, const void* host, CUdeviceptr device, CUarray array, size_t x,
              size_t y, size_t z, size_t pitch, size_t height) {
  CopyEnd end;
  end.type = static_cast<MemoryType>(type);
  // CUDA: a host end names srcHost/dstHost, an array end srcArray/dstArray;
  // device and unified ends name srcDevice/dstDevice.
  end.address = type == CU_MEMORYTYPE_HOST    ? reinterpret_cast<uintptr_t>(host)
                : type == CU_MEMORYTYPE_ARRAY ? HandleValue(array)
                                              : device;
  end.x = x;
  end.y = y;
  end.z = z;
  end.pitch = pitch;
  end.height = height;
  return end;
}

}  // namespace

absl::StatusOr<Copy3DParams> ToCopy(const CUDA_MEMCPY3D* p) {
  if (p == nullptr) return Error(ErrorCode::kInvalidValue, "memcpy3D: the descriptor is null");
  if (p->srcLOD != 0 || p->dstLOD != 0 || p->reserved0 != nullptr || p->reserved1 != nullptr) {
    return Error(ErrorCode::kInvalidValue,
                 "memcpy3D: srcLOD, dstLOD, reserved0 and reserved1 must be 0");
  }
  Copy3DParams copy;
  copy.src = ToEnd(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY,
                   p->srcZ, p->srcPitch, p->srcHeight);
  copy.dst = ToEnd(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY,
                   p->dstZ, p->dstPitch, p->dstHeight);
  copy.width = p->WidthInBytes;
  copy.height = p->Height;
  copy.depth = p->Depth;
  return copy;
}

absl::StatusOr<Copy3DParams> ToCopy(const CUDA_MEMCPY2D* p) {
  if (p == nullptr) return Error(ErrorCode::kInvalidValue, "memcpy2D: the descriptor is null");
  // One slice; CUDA: each pitch must hold x + WidthInBytes (core checks it
  // whenever there is more than one row).
  Copy3DParams copy;
  copy.src = ToEnd(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY,
                   0, p->srcPitch, p->Height);
  copy.dst = ToEnd(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY,
                   0, p->dstPitch, p->Height);
  copy.width = p->WidthInBytes;
  copy.height = p->Height;
  return copy;
}

void FromCopy(const Copy3DParams& copy, CUDA_MEMCPY3D* p) {
  *p = CUDA_MEMCPY3D{};
  auto fill = [](const CopyEnd& e, CUmemorytype* type, const void** host, CUdeviceptr* device,
                 size_t* x, size_t* y, size_t* z, size_t* pitch, size_t* height) {
    *type = static_cast<CUmemorytype>(e.type);
    if (e.type == MemoryType::kHost) {
      *host = reinterpret_cast<const void*>(static_cast<uintptr_t>(e.address));
    } else {
      *device = e.address;
    }
    *x = e.x;
    *y = e.y;
    *z = e.z;
    *pitch = e.pitch;
    *height = e.height;
  };
  const void* dst_host = nullptr;
  fill(copy.src, &p->srcMemoryType, &p->srcHost, &p->srcDevice, &p->srcXInBytes, &p->srcY, &p->srcZ,
       &p->srcPitch, &p->srcHeight);
  fill(copy.dst, &p->dstMemoryType, &dst_host, &p->dstDevice, &p->dstXInBytes, &p->dstY, &p->dstZ,
       &p->dstPitch, &p->dstHeight);
  p->dstHost = const_cast<void*>(dst_host);
  p->WidthInBytes = copy.width;
  p->Height = copy.height;
  p->Depth = copy.depth;
}

}  // namespace streamhal::cuda
