#include "core/entry_points.h"

#include <algorithm>

namespace streamhal {

EntryPointLookup LookUpEntryPoint(const StreamhalEntryPoint* table, size_t count,
                                  absl::string_view name, int version, bool per_thread) {
  const StreamhalEntryPoint* end = table + count;
  const StreamhalEntryPoint* first =
      std::lower_bound(table, end, name, [](const StreamhalEntryPoint& entry, absl::string_view n) {
        return absl::string_view(entry.name) < n;
      });
  const StreamhalEntryPoint* last = first;
  while (last != end && absl::string_view(last->name) == name) ++last;
  EntryPointLookup result;
  if (first == last) return result;  // kSymbolNotFound
  const StreamhalEntryPoint* form = nullptr;
  for (const StreamhalEntryPoint* entry = first; entry != last; ++entry) {
    if (entry->version <= version) form = entry;
  }
  const bool served_later =
      std::any_of(form == nullptr ? first : form + 1, last,
                  [](const StreamhalEntryPoint& entry) { return entry.fn != nullptr; });
  if (form == nullptr || form->fn == nullptr) {
    result.status =
        served_later ? EntryPointStatus::kVersionNotSufficient : EntryPointStatus::kSymbolNotFound;
    return result;
  }
  result.status = EntryPointStatus::kFound;
  result.fn = form->fn;
  if (per_thread && form->per_thread_fn != nullptr && form->per_thread_version <= version) {
    result.fn = form->per_thread_fn;
  }
  return result;
}

}  // namespace streamhal
