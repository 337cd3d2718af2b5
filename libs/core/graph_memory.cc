#include "core/graph_memory.h"

#include "core/context.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/status.h"

namespace streamhal {

absl::StatusOr<std::shared_ptr<GraphMemory>> GraphMemory::Create(Context* context, uint64_t bytes) {
  SH_ASSIGN_OR_RETURN(Allocation * allocation, AllocateDeviceMemory(context, bytes));
  allocation->graph_memory = true;
  return std::shared_ptr<GraphMemory>(new GraphMemory(
      allocation->device_address(), bytes, allocation->buffer_id, context->device()->ordinal()));
}

GraphMemory::~GraphMemory() {
  absl::StatusOr<ResolvedPointer> resolved = ResolveDeviceRange(address_, 1, "graph memory");
  if (!resolved.ok() || resolved->offset != 0 || resolved->allocation->buffer_id != buffer_id_) {
    return;  // freed with its context
  }
  (void)FreeAllocation(resolved->allocation);
}

}  // namespace streamhal
