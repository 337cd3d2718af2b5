#include "copy_params.h"

#include "call.h"
#include "core/array.h"
#include "core/c_enum.h"
#include "core/status.h"

namespace streamhal::hip {
namespace {

// hipMemoryType to core's MemoryType (CUmemorytype's values). Managed
// memory is reached through its one address, as a unified end is; numbers
// HIP does not name become 0, which core rejects as unknown.
MemoryType ToMemoryType(int type) {
  switch (type) {
    case hipMemoryTypeHost:
      return MemoryType::kHost;
    case hipMemoryTypeDevice:
      return MemoryType::kDevice;
    case hipMemoryTypeArray:
      return MemoryType::kArray;
    case hipMemoryTypeUnified:
    case hipMemoryTypeManaged:
      return MemoryType::kUnified;
    default:
      return static_cast<MemoryType>(0);
  }
}

// One end of a driver-style descriptor: a host end names srcHost/dstHost,
// every other kind srcDevice/dstDevice.
CopyEnd DriverEnd(int type, const void* host, hipDeviceptr_t device, hipArray_t array, size_t x,
                  size_t y, size_t z, size_t pitch, size_t height) {
  CopyEnd end;
  end.type = ToMemoryType(type);
  end.address = end.type == MemoryType::kHost    ? Address(host)
                : end.type == MemoryType::kArray ? Address(array)
                                                 : Address(device);
  end.x = x;
  end.y = y;
  end.z = z;
  end.pitch = pitch;
  end.height = height;
  return end;
}

}  // namespace

// hipMemcpy3DParms names no memory types: `kind` gives both ends'.
absl::Status EndTypes(int kind, MemoryType* src, MemoryType* dst) {
  switch (kind) {
    case hipMemcpyHostToHost:
      *src = MemoryType::kHost;
      *dst = MemoryType::kHost;
      return absl::OkStatus();
    case hipMemcpyHostToDevice:
      *src = MemoryType::kHost;
      *dst = MemoryType::kDevice;
      return absl::OkStatus();
    case hipMemcpyDeviceToHost:
      *src = MemoryType::kDevice;
      *dst = MemoryType::kHost;
      return absl::OkStatus();
    case hipMemcpyDeviceToDevice:
      *src = MemoryType::kDevice;
      *dst = MemoryType::kDevice;
      return absl::OkStatus();
    case hipMemcpyDefault:
      *src = MemoryType::kUnified;
      *dst = MemoryType::kUnified;
      return absl::OkStatus();
    default:
      return Error(ErrorCode::kInvalidMemcpyDirection, "memcpy: unknown hipMemcpyKind ", kind);
  }
}

CopyEnd ToEnd(MemoryType type, const hipPitchedPtr& ptr, const hipPos& pos) {
  CopyEnd end;
  end.type = type;
  end.address = Address(ptr.ptr);
  end.x = pos.x;
  end.y = pos.y;
  end.z = pos.z;
  end.pitch = ptr.pitch;
  end.height = ptr.ysize;
  return end;
}

absl::StatusOr<Copy3DParams> ToCopy(const hipMemcpy3DParms* p) {
  if (p == nullptr) return Error(ErrorCode::kInvalidValue, "memcpy3D: the parameters are null");
  MemoryType src_type, dst_type;
  SH_RETURN_IF_ERROR(EndTypes(EnumArgument(p->kind), &src_type, &dst_type));
  Copy3DParams copy;
  copy.src = ToEnd(src_type, p->srcPtr, p->srcPos);
  copy.dst = ToEnd(dst_type, p->dstPtr, p->dstPos);
  copy.width = p->extent.width;
  // With an array end, the extent's width and an array end's x count
  // elements (HIP, like cudaMemcpy3D); core counts bytes.
  uint64_t element = 0;
  for (hipArray_t array : {p->srcArray, p->dstArray}) {
    if (array == nullptr || element != 0) continue;
    ArrayDescriptor d;
    const absl::Status described = ArrayGetDescriptor(Address(array), &d);
    if (!described.ok()) {
      return Error(ErrorCode::kInvalidValue, "memcpy3D: ", described.message());
    }
    element = ArrayElementBytes(d.format, d.channels);
  }
  if (element != 0) copy.width *= element;
  if (p->srcArray != nullptr) {
    copy.src = CopyEnd{MemoryType::kArray,
                       Address(p->srcArray),
                       p->srcPos.x * element,
                       p->srcPos.y,
                       p->srcPos.z,
                       0,
                       0};
  }
  if (p->dstArray != nullptr) {
    copy.dst = CopyEnd{MemoryType::kArray,
                       Address(p->dstArray),
                       p->dstPos.x * element,
                       p->dstPos.y,
                       p->dstPos.z,
                       0,
                       0};
  }
  copy.height = p->extent.height;
  copy.depth = p->extent.depth;
  return copy;
}

absl::StatusOr<Copy3DParams> ToCopy(const hip_Memcpy2D* p) {
  if (p == nullptr) return Error(ErrorCode::kInvalidValue, "memcpy2D: pCopy is null");
  Copy3DParams copy;
  copy.src = DriverEnd(EnumArgument(p->srcMemoryType), p->srcHost, p->srcDevice, p->srcArray,
                       p->srcXInBytes, p->srcY, 0, p->srcPitch, p->Height);
  copy.dst = DriverEnd(EnumArgument(p->dstMemoryType), p->dstHost, p->dstDevice, p->dstArray,
                       p->dstXInBytes, p->dstY, 0, p->dstPitch, p->Height);
  copy.width = p->WidthInBytes;
  copy.height = p->Height;
  return copy;
}

absl::StatusOr<Copy3DParams> ToCopy(const HIP_MEMCPY3D* p) {
  if (p == nullptr) return Error(ErrorCode::kInvalidValue, "memcpy3D: pCopy is null");
  if (p->srcLOD != 0 || p->dstLOD != 0) {
    return Error(ErrorCode::kInvalidValue, "memcpy3D: srcLOD and dstLOD must be 0");
  }
  Copy3DParams copy;
  copy.src = DriverEnd(EnumArgument(p->srcMemoryType), p->srcHost, p->srcDevice, p->srcArray,
                       p->srcXInBytes, p->srcY, p->srcZ, p->srcPitch, p->srcHeight);
  copy.dst = DriverEnd(EnumArgument(p->dstMemoryType), p->dstHost, p->dstDevice, p->dstArray,
                       p->dstXInBytes, p->dstY, p->dstZ, p->dstPitch, p->dstHeight);
  copy.width = p->WidthInBytes;
  copy.height = p->Height;
  copy.depth = p->Depth;
  return copy;
}

absl::StatusOr<Copy3DParams> ToCopy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                                      size_t width, size_t height, int kind) {
  MemoryType src_type, dst_type;
  SH_RETURN_IF_ERROR(EndTypes(kind, &src_type, &dst_type));
  const hipPos origin = make_hipPos(0, 0, 0);
  Copy3DParams copy;
  copy.src =
      ToEnd(src_type, make_hipPitchedPtr(const_cast<void*>(src), spitch, width, height), origin);
  copy.dst = ToEnd(dst_type, make_hipPitchedPtr(dst, dpitch, width, height), origin);
  copy.width = width;
  copy.height = height;
  return copy;
}

}  // namespace streamhal::hip
