#include "core/managed_memory.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/c_enum.h"
#include "core/context.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/status.h"
#include "core/stream.h"

namespace streamhal {
namespace {

// Advice and prefetches apply to whole pages (CUDA rounds the range out to
// page boundaries); pages are counted from the start of the allocation.
constexpr uint64_t kPageSize = 4096;

struct ManagedRange {
  Allocation* allocation = nullptr;
  uint64_t begin = 0;  // byte offsets into the allocation, page-rounded
  uint64_t end = 0;
};

// The managed allocation holding all of [dptr, dptr + count), page-rounded.
// A range that is not inside one managed allocation is kInvalidValue.
absl::StatusOr<ManagedRange> ResolveManagedRange(uint64_t dptr, size_t count, const char* what) {
  if (count == 0) return Error(ErrorCode::kInvalidValue, what, ": count is 0");
  if (dptr == 0) return Error(ErrorCode::kInvalidValue, what, ": devPtr is 0");
  ResolvedPointer resolved = ResolveAnyRange(dptr, count);
  if (resolved.allocation == nullptr || resolved.allocation->kind != AllocationKind::kManaged) {
    return Error(ErrorCode::kInvalidValue, what, ": [0x", absl::Hex(dptr), ", +", count,
                 ") is not inside one managed allocation");
  }
  ManagedRange range;
  range.allocation = resolved.allocation;
  range.begin = resolved.offset / kPageSize * kPageSize;
  const uint64_t end = resolved.offset + count;
  range.end =
      std::min<uint64_t>((end + kPageSize - 1) / kPageSize * kPageSize, resolved.allocation->size);
  return range;
}

// A location argument: a device ordinal, or the host where `allow_cpu`.
absl::Status CheckLocation(int device, bool allow_cpu, const char* what) {
  if (device == kDeviceCpu && allow_cpu) return absl::OkStatus();
  SH_ASSIGN_OR_RETURN(int count, DeviceCount());
  if (device < 0 || device >= count || device >= 63) {
    return Error(ErrorCode::kInvalidDevice, what, ": ", device, " is not a device",
                 allow_cpu ? " or CU_DEVICE_CPU" : "");
  }
  return absl::OkStatus();
}

uint64_t LocationBit(int device) { return uint64_t{1} << (device + 1); }

// Splits the runs of `state` so that `offset` starts one (offset < size).
void SplitAt(ManagedState& state, uint64_t offset) ABSL_EXCLUSIVE_LOCKS_REQUIRED(state.mutex) {
  if (offset >= state.size) return;
  auto it = state.runs.upper_bound(offset);
  --it;  // runs start at 0, so one starts at or below `offset`
  if (it->first != offset) state.runs.emplace(offset, it->second);
}

// Applies `change` to the pages of `range`, then merges equal neighbours.
template <typename Change>
void Apply(const ManagedRange& range, Change change) {
  ManagedState& state = *range.allocation->managed;
  MutexLock lock(&state.mutex);
  SplitAt(state, range.begin);
  SplitAt(state, range.end);
  for (auto it = state.runs.find(range.begin); it != state.runs.end() && it->first < range.end;
       ++it) {
    change(it->second);
  }
  for (auto it = state.runs.begin(); it != state.runs.end();) {
    auto next = std::next(it);
    if (next != state.runs.end() && next->second == it->second) {
      // A b-tree erase invalidates every iterator: find `it` again as the
      // run before the one after the erased run.
      it = std::prev(state.runs.erase(next));
    } else {
      it = next;
    }
  }
}

// The states of the runs that overlap `range`.
std::vector<ManagedPageState> StatesOf(const ManagedRange& range) {
  ManagedState& state = *range.allocation->managed;
  MutexLock lock(&state.mutex);
  std::vector<ManagedPageState> states;
  auto it = state.runs.upper_bound(range.begin);
  --it;
  for (; it != state.runs.end() && it->first < range.end; ++it) states.push_back(it->second);
  return states;
}

// One attribute's value, as the int32 words CUDA writes.
absl::Status CheckRangeAttribute(int attribute, size_t data_size, ManagedApi api,
                                 const char* what) {
  switch (attribute) {
    case static_cast<int>(MemRangeAttribute::kReadMostly):
    case static_cast<int>(MemRangeAttribute::kPreferredLocation):
    case static_cast<int>(MemRangeAttribute::kLastPrefetchLocation):
      if (data_size != 4) {
        return Error(ErrorCode::kInvalidValue, what, ": dataSize must be 4 for attribute ",
                     attribute);
      }
      return absl::OkStatus();
    case static_cast<int>(MemRangeAttribute::kAccessedBy):
      if (data_size == 0 || data_size % 4 != 0) {
        return Error(ErrorCode::kInvalidValue, what,
                     ": dataSize for CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY must be a non-zero "
                     "multiple of 4");
      }
      return absl::OkStatus();
    case static_cast<int>(MemRangeAttribute::kCoherencyMode):
      if (api == ManagedApi::kHip) {
        if (data_size != 4) {
          return Error(ErrorCode::kInvalidValue, what,
                       ": dataSize must be 4 for hipMemRangeAttributeCoherencyMode");
        }
        return absl::OkStatus();
      }
      break;
    default:
      break;
  }
  return Error(ErrorCode::kInvalidValue, what, ": unknown attribute ", attribute);
}

// The value of a checked attribute over `states` as int32 words.
std::vector<int32_t> RangeAttributeValue(int attribute, size_t data_size,
                                         const std::vector<ManagedPageState>& states) {
  auto common = [&](auto field, int32_t mixed) -> int32_t {
    const auto first = field(states.front());
    for (const ManagedPageState& state : states) {
      if (field(state) != first) return mixed;
    }
    return static_cast<int32_t>(first);
  };
  switch (static_cast<MemRangeAttribute>(attribute)) {
    case MemRangeAttribute::kReadMostly:
      return {common([](const ManagedPageState& s) { return s.read_mostly ? 1 : 0; }, 0)};
    case MemRangeAttribute::kPreferredLocation:
      return {
          common([](const ManagedPageState& s) { return s.preferred_location; }, kDeviceInvalid)};
    case MemRangeAttribute::kLastPrefetchLocation:
      return {common([](const ManagedPageState& s) { return s.last_prefetch_location; },
                     kDeviceInvalid)};
    case MemRangeAttribute::kCoherencyMode:
      // hipMemRangeCoherencyModeFineGrain 0, CoarseGrain 1, Indeterminate 2.
      return {common([](const ManagedPageState& s) { return s.coarse_grain ? 1 : 0; }, 2)};
    case MemRangeAttribute::kAccessedBy: {
      // CUDA: the devices that set-accessed-by names for the whole range,
      // then CU_DEVICE_INVALID in the remaining slots.
      uint64_t all = ~uint64_t{0};
      for (const ManagedPageState& state : states) all &= state.accessed_by;
      std::vector<int32_t> words(data_size / 4, kDeviceInvalid);
      size_t slot = 0;
      for (int location = kDeviceCpu; location < 63 && slot < words.size(); ++location) {
        if (all & LocationBit(location)) words[slot++] = location;
      }
      return words;
    }
  }
  return {};
}

absl::Status CheckAllocManagedFlags(unsigned flags) {
  if (flags != kMemAttachGlobal && flags != kMemAttachHost) {
    return Error(ErrorCode::kInvalidValue, "cuMemAllocManaged: flags 0x", absl::Hex(flags),
                 " must be CU_MEM_ATTACH_GLOBAL or CU_MEM_ATTACH_HOST");
  }
  return absl::OkStatus();
}

}  // namespace

ManagedState::ManagedState(uint64_t size, unsigned flags) : size(size), attach_flags(flags) {
  MutexLock lock(&mutex);
  runs.emplace(0, ManagedPageState{});
}

absl::Status MemAllocManaged(uint64_t* dptr, size_t bytes, unsigned flags) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (dptr == nullptr) return Error(ErrorCode::kInvalidValue, "cuMemAllocManaged: dptr is null");
  SH_RETURN_IF_ERROR(CheckAllocManagedFlags(flags));
  if (bytes == 0) return Error(ErrorCode::kInvalidValue, "cuMemAllocManaged: bytesize is 0");
  SH_ASSIGN_OR_RETURN(
      Allocation * allocation,
      AllocateManagedMemory(context, bytes, flags, std::make_shared<ManagedState>(bytes, flags)));
  *dptr = allocation->device_address();
  return absl::OkStatus();
}

absl::Status StreamAttachMem(uint64_t stream_handle, uint64_t dptr, size_t length, unsigned flags) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
  (void)stream;
  if (flags != kMemAttachGlobal && flags != kMemAttachHost && flags != kMemAttachSingle) {
    return Error(ErrorCode::kInvalidValue, "cuStreamAttachMemAsync: flags 0x", absl::Hex(flags),
                 " must be one of CU_MEM_ATTACH_GLOBAL, _HOST or _SINGLE");
  }
  // CUDA: attaching singly to the NULL stream (a virtual global stream) is
  // an error.
  if (flags == kMemAttachSingle &&
      (stream_handle == 0 || stream_handle == kStreamLegacy || stream_handle == kStreamPerThread)) {
    return Error(ErrorCode::kInvalidValue,
                 "cuStreamAttachMemAsync: CU_MEM_ATTACH_SINGLE needs a created stream");
  }
  if (dptr == 0) return Error(ErrorCode::kInvalidValue, "cuStreamAttachMemAsync: dptr is 0");
  ResolvedPointer resolved = ResolveAnyRange(dptr, 1);
  if (resolved.allocation == nullptr || resolved.allocation->kind != AllocationKind::kManaged) {
    return Error(ErrorCode::kInvalidValue, "cuStreamAttachMemAsync: 0x", absl::Hex(dptr),
                 " is not managed memory");
  }
  // CUDA: the whole allocation changes hands; length is 0 or all of it.
  if (length != 0 && (resolved.offset != 0 || length != resolved.allocation->size)) {
    return Error(ErrorCode::kInvalidValue, "cuStreamAttachMemAsync: length ", length,
                 " must be 0 or the size of the allocation");
  }
  // Host and device access the memory coherently at any time on devices
  // that have managed memory, so attachment only limits what a program
  // may do; it is recorded, and changes no data.
  ManagedState& state = *resolved.allocation->managed;
  MutexLock lock(&state.mutex);
  state.attach_flags = flags;
  state.attached_stream = flags == kMemAttachSingle ? stream_handle : 0;
  return absl::OkStatus();
}

absl::Status MemAdvise(uint64_t dptr, size_t count, int advice, int device, ManagedApi api) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  constexpr const char* kWhat = "cuMemAdvise";
  const bool hip_only = advice == static_cast<int>(MemAdvice::kSetCoarseGrain) ||
                        advice == static_cast<int>(MemAdvice::kUnsetCoarseGrain);
  if ((advice < static_cast<int>(MemAdvice::kSetReadMostly) ||
       advice > static_cast<int>(MemAdvice::kUnsetAccessedBy)) &&
      !(hip_only && api == ManagedApi::kHip)) {
    return Error(ErrorCode::kInvalidValue, kWhat, ": unknown advice ", advice);
  }
  SH_ASSIGN_OR_RETURN(ManagedRange range, ResolveManagedRange(dptr, count, kWhat));
  switch (static_cast<MemAdvice>(advice)) {
    case MemAdvice::kSetReadMostly:
      Apply(range, [](ManagedPageState& s) { s.read_mostly = true; });
      break;
    case MemAdvice::kUnsetReadMostly:
      Apply(range, [](ManagedPageState& s) { s.read_mostly = false; });
      break;
    case MemAdvice::kSetPreferredLocation:
      SH_RETURN_IF_ERROR(CheckLocation(device, /*allow_cpu=*/true, kWhat));
      Apply(range, [device](ManagedPageState& s) { s.preferred_location = device; });
      break;
    case MemAdvice::kUnsetPreferredLocation:
      Apply(range, [](ManagedPageState& s) { s.preferred_location = kDeviceInvalid; });
      break;
    case MemAdvice::kSetAccessedBy:
      SH_RETURN_IF_ERROR(CheckLocation(device, /*allow_cpu=*/true, kWhat));
      Apply(range, [device](ManagedPageState& s) { s.accessed_by |= LocationBit(device); });
      break;
    case MemAdvice::kUnsetAccessedBy:
      SH_RETURN_IF_ERROR(CheckLocation(device, /*allow_cpu=*/true, kWhat));
      Apply(range, [device](ManagedPageState& s) { s.accessed_by &= ~LocationBit(device); });
      break;
    case MemAdvice::kSetCoarseGrain:
      Apply(range, [](ManagedPageState& s) { s.coarse_grain = true; });
      break;
    case MemAdvice::kUnsetCoarseGrain:
      Apply(range, [](ManagedPageState& s) { s.coarse_grain = false; });
      break;
  }
  return absl::OkStatus();
}

absl::Status MemPrefetch(uint64_t dptr, size_t count, int device, uint64_t stream_handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  constexpr const char* kWhat = "cuMemPrefetchAsync";
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
  SH_ASSIGN_OR_RETURN(ManagedRange range, ResolveManagedRange(dptr, count, kWhat));
  SH_RETURN_IF_ERROR(CheckLocation(device, /*allow_cpu=*/true, kWhat));
  // CUDA: the attribute reports the location last asked for, whether or
  // not the prefetch has run.
  Apply(range, [device](ManagedPageState& s) { s.last_prefetch_location = device; });
  // The memory is already where both sides reach it, so the prefetch moves
  // nothing; in the stream it is a point after all earlier work, which is
  // submitted now as any asynchronous operation submits it. A capturing
  // stream gets no node: there is no work to replay.
  if (stream->capture() != nullptr) return absl::OkStatus();
  return stream->Flush().status();
}

absl::Status MemBatchPrefetch(size_t count,
                              const std::function<absl::StatusOr<ManagedBatchRange>(size_t)>& range,
                              uint64_t stream_handle, const char* what) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
  for (size_t i = 0; i < count; ++i) {
    SH_ASSIGN_OR_RETURN(const ManagedBatchRange r, range(i));
    SH_RETURN_IF_ERROR(ResolveManagedRange(r.dptr, r.size, what).status());
    if (r.device != kDeviceInvalid) {
      SH_RETURN_IF_ERROR(CheckLocation(r.device, /*allow_cpu=*/true, what));
    }
  }
  for (size_t i = 0; i < count; ++i) {
    const ManagedBatchRange r = *range(i);  // valid: the first pass read it
    if (r.device == kDeviceInvalid) continue;
    // Valid a moment ago; a range freed meanwhile by another thread is the
    // caller's race, and is skipped.
    absl::StatusOr<ManagedRange> resolved = ResolveManagedRange(r.dptr, r.size, what);
    if (!resolved.ok()) continue;
    const int device = r.device;
    Apply(*resolved, [device](ManagedPageState& s) { s.last_prefetch_location = device; });
  }
  // As MemPrefetch: nothing moves, and the batch is a point in the stream.
  if (stream->capture() != nullptr) return absl::OkStatus();
  return stream->Flush().status();
}

absl::Status MemRangeGetAttribute(void* data, size_t data_size, int attribute, uint64_t dptr,
                                  size_t count, ManagedApi api) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  constexpr const char* kWhat = "cuMemRangeGetAttribute";
  if (data == nullptr) return Error(ErrorCode::kInvalidValue, kWhat, ": data is null");
  SH_RETURN_IF_ERROR(CheckRangeAttribute(attribute, data_size, api, kWhat));
  SH_ASSIGN_OR_RETURN(ManagedRange range, ResolveManagedRange(dptr, count, kWhat));
  const std::vector<int32_t> words = RangeAttributeValue(attribute, data_size, StatesOf(range));
  std::memcpy(data, words.data(), words.size() * sizeof(int32_t));
  return absl::OkStatus();
}

absl::Status MemRangeGetAttributes(void** data, const size_t* data_sizes, const void* attributes,
                                   size_t num_attributes, uint64_t dptr, size_t count,
                                   ManagedApi api) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  constexpr const char* kWhat = "cuMemRangeGetAttributes";
  if (data == nullptr || data_sizes == nullptr || attributes == nullptr) {
    return Error(ErrorCode::kInvalidValue, kWhat,
                 ": data, dataSizes and attributes must not be null");
  }
  if (num_attributes == 0) {
    return Error(ErrorCode::kInvalidValue, kWhat, ": numAttributes is 0");
  }
  for (size_t i = 0; i < num_attributes; ++i) {
    if (data[i] == nullptr) {
      return Error(ErrorCode::kInvalidValue, kWhat, ": data[", i, "] is null");
    }
    SH_RETURN_IF_ERROR(
        CheckRangeAttribute(EnumArrayElement(attributes, i), data_sizes[i], api, kWhat));
  }
  SH_ASSIGN_OR_RETURN(ManagedRange range, ResolveManagedRange(dptr, count, kWhat));
  const std::vector<ManagedPageState> states = StatesOf(range);
  for (size_t i = 0; i < num_attributes; ++i) {
    const std::vector<int32_t> words =
        RangeAttributeValue(EnumArrayElement(attributes, i), data_sizes[i], states);
    std::memcpy(data[i], words.data(), words.size() * sizeof(int32_t));
  }
  return absl::OkStatus();
}

}  // namespace streamhal
