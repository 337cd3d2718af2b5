// The memory of a graph's allocation nodes (cuGraphAddMemAllocNode, and
// cuMemAllocAsync in a capturing stream).
//
// CUDA fixes an allocation node's address when the node is made, for the
// life of the graph. Here the node's memory is a device allocation made
// then, and shared by the graph, its clones and its executable graphs; it
// goes back to the device when the last of them is destroyed. Nodes ordered
// between the allocation and the free node may use it, as in CUDA; the
// memory simply stays valid beyond that window (using it there is undefined
// in CUDA anyway). It is not freed by cuMemFree or cuMemFreeAsync: an
// allocation the graph does not free stays with the graph (CUDA lets the
// program free it after a launch; streamhal refuses, see the Graph rows).
#ifndef STREAMHAL_CORE_GRAPH_MEMORY_H_
#define STREAMHAL_CORE_GRAPH_MEMORY_H_

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"

namespace streamhal {

class Context;

class GraphMemory {
 public:
  // `bytes` of device memory owned by `context`, entered in the address map
  // and marked as graph memory.
  static absl::StatusOr<std::shared_ptr<GraphMemory>> Create(Context* context, uint64_t bytes);
  // Frees the memory (after the context's work that may use it), unless the
  // context's teardown freed it already.
  ~GraphMemory();
  GraphMemory(const GraphMemory&) = delete;
  GraphMemory& operator=(const GraphMemory&) = delete;

  uint64_t address() const { return address_; }
  uint64_t bytes() const { return bytes_; }
  int device_ordinal() const { return device_ordinal_; }

 private:
  GraphMemory(uint64_t address, uint64_t bytes, uint64_t buffer_id, int device_ordinal)
      : address_(address), bytes_(bytes), buffer_id_(buffer_id), device_ordinal_(device_ordinal) {}

  const uint64_t address_;
  const uint64_t bytes_;
  const uint64_t buffer_id_;  // tells our allocation from a later one at the same address
  const int device_ordinal_;
};

// cuDeviceGetGraphMemAttribute / hipDeviceGetGraphMemAttribute: graph
// memory of a device in bytes (CUgraphMem_attribute's and
// hipGraphMemAttributeType's values). Graph memory is not cached: each
// GraphMemory is its own device allocation, returned when the last graph
// holding it goes, so the reserved amounts equal the used ones.
enum class GraphMemAttribute : int {
  kUsedMemCurrent = 0,
  kUsedMemHigh = 1,
  kReservedMemCurrent = 2,
  kReservedMemHigh = 3,
};
// kInvalidDevice for a bad ordinal, kInvalidValue for a null `value` or an
// unknown attribute.
absl::Status DeviceGetGraphMemAttribute(int device, int attribute, uint64_t* value);
// Only the high watermarks can be set, and only to 0, which resets them to
// the current amount (CUDA's rule); anything else is kInvalidValue.
absl::Status DeviceSetGraphMemAttribute(int device, int attribute, const uint64_t* value);
// cuDeviceGraphMemTrim: nothing is cached, so there is nothing to return to
// the system; validates the device.
absl::Status DeviceGraphMemTrim(int device);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_GRAPH_MEMORY_H_
