#include "core/diagnostics.h"

#include <atomic>

#include "core/log.h"
#include "core/mutex.h"

namespace streamhal {
namespace {

std::atomic<uint64_t> g_validation_count{0};

struct LastMessage {
  Mutex mutex;
  std::string text ABSL_GUARDED_BY(mutex);
};

LastMessage& Last() {
  // Leaked on purpose: it may be used during static destruction.
  static LastMessage* last = new LastMessage;
  return *last;
}

}  // namespace

void RecordValidationMessage(absl::string_view message) {
  g_validation_count.fetch_add(1, std::memory_order_relaxed);
  Log(LogLevel::kError, "validation: ", message);
  LastMessage& last = Last();
  MutexLock lock(&last.mutex);
  last.text = std::string(message);
}

uint64_t ValidationMessageCount() { return g_validation_count.load(std::memory_order_relaxed); }

std::string LastValidationMessage() {
  LastMessage& last = Last();
  MutexLock lock(&last.mutex);
  return last.text;
}

}  // namespace streamhal
