#include "core/handle.h"

#include <atomic>
#include <cstdlib>
#include <deque>

#include "core/handle_retirement.h"
#include "core/log.h"
#include "core/mutex.h"

namespace streamhal {
namespace {

// Handle layout: [kind:8][generation:24][index:32]. The kind byte is never 0,
// so every handle is far above the stream sentinels 0x1 and 0x2.
constexpr int kIndexBits = 32;
constexpr int kGenerationBits = 24;
constexpr uint64_t kIndexMask = (uint64_t{1} << kIndexBits) - 1;
constexpr uint64_t kGenerationMask = (uint64_t{1} << kGenerationBits) - 1;

constexpr uint32_t kSlotsPerChunk = 4096;
constexpr uint32_t kMaxChunks = 4096;  // 16M live objects

uint64_t Pack(ObjectKind kind, uint32_t generation, uint32_t index) {
  return (uint64_t{static_cast<uint8_t>(kind)} << (kIndexBits + kGenerationBits)) |
         (uint64_t{generation & kGenerationMask} << kIndexBits) | index;
}
ObjectKind KindOf(uint64_t handle) {
  return static_cast<ObjectKind>(handle >> (kIndexBits + kGenerationBits));
}
uint32_t GenerationOf(uint64_t handle) {
  return static_cast<uint32_t>((handle >> kIndexBits) & kGenerationMask);
}
uint32_t IndexOf(uint64_t handle) { return static_cast<uint32_t>(handle & kIndexMask); }

struct Slot {
  std::atomic<uint64_t> live_handle{0};  // 0 while free
  std::atomic<Object*> object{nullptr};
  // Generation the next object in this slot gets; handles with a smaller
  // generation were issued and have been retired. Written under the mutex.
  std::atomic<uint32_t> next_generation{1};
};

struct Chunk {
  Slot slots[kSlotsPerChunk];
};

class Table {
 public:
  uint64_t Insert(Object* object, ObjectKind kind) {
    MutexLock lock(&mutex_);
    uint32_t index;
    if (!free_.empty()) {
      index = free_.front();
      free_.pop_front();
    } else {
      index = next_index_++;
      const uint32_t chunk = index / kSlotsPerChunk;
      if (chunk >= kMaxChunks) {
        Log(LogLevel::kError, "handle table exhausted");
        std::abort();
      }
      if (chunks_[chunk].load(std::memory_order_relaxed) == nullptr) {
        chunks_[chunk].store(new Chunk, std::memory_order_release);
      }
    }
    Slot& slot = SlotAt(index);
    uint32_t generation = slot.next_generation.load(std::memory_order_relaxed);
    if (generation > kGenerationMask) generation = 1;  // wrap; 16M reuses of one slot
    slot.next_generation.store(generation + 1, std::memory_order_relaxed);
    const uint64_t handle = Pack(kind, generation, index);
    slot.object.store(object, std::memory_order_relaxed);
    slot.live_handle.store(handle, std::memory_order_release);
    ++live_;
    return handle;
  }

  void Remove(uint64_t handle) {
    MutexLock lock(&mutex_);
    Slot& slot = SlotAt(IndexOf(handle));
    slot.live_handle.store(0, std::memory_order_release);
    slot.object.store(nullptr, std::memory_order_relaxed);
    // Reuse slots in FIFO order so that a retired handle value comes back as
    // late as possible.
    free_.push_back(IndexOf(handle));
    --live_;
  }

  Object* Lookup(uint64_t handle, ObjectKind kind, HandleState* state) const {
    HandleState result = HandleState::kInvalid;
    Object* object = nullptr;
    if (handle == 0) {
      result = HandleState::kNull;
    } else if (KindOf(handle) == kind) {
      const uint32_t index = IndexOf(handle);
      const uint32_t chunk = index / kSlotsPerChunk;
      const Chunk* chunk_ptr =
          chunk < kMaxChunks ? chunks_[chunk].load(std::memory_order_acquire) : nullptr;
      if (chunk_ptr != nullptr) {
        const Slot& slot = chunk_ptr->slots[index % kSlotsPerChunk];
        if (slot.live_handle.load(std::memory_order_acquire) == handle) {
          object = slot.object.load(std::memory_order_relaxed);
          result = object != nullptr ? HandleState::kLive : HandleState::kDestroyed;
        } else if (GenerationOf(handle) != 0 &&
                   GenerationOf(handle) < slot.next_generation.load(std::memory_order_relaxed)) {
          result = HandleState::kDestroyed;
        }
      }
    }
    if (state != nullptr) *state = result;
    return object;
  }

  uint64_t live() const {
    MutexLock lock(&mutex_);
    return live_;
  }

 private:
  Slot& SlotAt(uint32_t index) {
    return chunks_[index / kSlotsPerChunk]
        .load(std::memory_order_relaxed)
        ->slots[index % kSlotsPerChunk];
  }

  mutable Mutex mutex_;
  std::atomic<Chunk*> chunks_[kMaxChunks] = {};
  std::deque<uint32_t> free_ ABSL_GUARDED_BY(mutex_);
  uint32_t next_index_ ABSL_GUARDED_BY(mutex_) = 1;  // index 0 unused
  uint64_t live_ ABSL_GUARDED_BY(mutex_) = 0;
};

Table& GlobalTable() {
  // Leaked on purpose: handles must stay checkable during static destruction.
  static Table* table = new Table;
  return *table;
}

}  // namespace

namespace {
std::atomic<uint64_t> next_unique_id{1};
}  // namespace

Object::Object(ObjectKind kind)
    : kind_(kind),
      handle_(GlobalTable().Insert(this, kind)),
      unique_id_(next_unique_id.fetch_add(1, std::memory_order_relaxed)) {}

Object::~Object() {
  GlobalTable().Remove(handle_);
  // After the removal: a lookup that found the object read the count before.
  internal::g_handle_retirements.fetch_add(1, std::memory_order_acq_rel);
}

const char* HandleProblem(HandleState state, const char* wrong_kind, const char* destroyed) {
  switch (state) {
    case HandleState::kNull:
      return " is null";
    case HandleState::kDestroyed:
      return destroyed;
    default:
      return wrong_kind;
  }
}

Object* LookupHandle(uint64_t handle, ObjectKind kind, HandleState* state) {
  return GlobalTable().Lookup(handle, kind, state);
}

uint64_t LiveObjectCount() { return GlobalTable().live(); }

namespace {
std::atomic<uint64_t> resource_generation{0};
}  // namespace

uint64_t ResourceGeneration() { return resource_generation.load(std::memory_order_acquire); }
void BumpResourceGeneration() { resource_generation.fetch_add(1, std::memory_order_acq_rel); }

}  // namespace streamhal
