#include "core/profiler.h"

#include "core/context.h"

namespace streamhal {

absl::Status ProfilerControl() { return CurrentContext().status(); }

}  // namespace streamhal
