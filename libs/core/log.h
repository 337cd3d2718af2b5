// A tiny leveled logger (Debian's Abseil 20220623 has no absl/log).
// STREAMHAL_LOG_LEVEL=error|warning|info|debug (or 0..4, 0 = silent) picks what
// reaches stderr; the default is warning.
#ifndef STREAMHAL_CORE_LOG_H_
#define STREAMHAL_CORE_LOG_H_

#include "absl/strings/string_view.h"

#include "absl/strings/str_cat.h"

namespace streamhal {

enum class LogLevel : int { kSilent = 0, kError = 1, kWarning = 2, kInfo = 3, kDebug = 4 };

// The level chosen by STREAMHAL_LOG_LEVEL, read once.
LogLevel CurrentLogLevel();
bool LogEnabled(LogLevel level);
void LogMessage(LogLevel level, absl::string_view message);

template <typename... Args>
void Log(LogLevel level, const Args&... args) {
  if (LogEnabled(level)) LogMessage(level, absl::StrCat(args...));
}

}  // namespace streamhal

#endif  // STREAMHAL_CORE_LOG_H_
