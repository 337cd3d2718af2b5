#include "core/log.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/ascii.h"

namespace streamhal {
namespace {

LogLevel ParseLevel(const char* text) {
  if (text == nullptr || *text == '\0') return LogLevel::kWarning;
  const std::string value = absl::AsciiStrToLower(text);
  if (value == "silent" || value == "0" || value == "none") return LogLevel::kSilent;
  if (value == "error" || value == "1") return LogLevel::kError;
  if (value == "warning" || value == "warn" || value == "2") return LogLevel::kWarning;
  if (value == "info" || value == "3") return LogLevel::kInfo;
  if (value == "debug" || value == "4" || value == "5") return LogLevel::kDebug;
  return LogLevel::kWarning;
}

const char* LevelTag(LogLevel level) {
  switch (level) {
    case LogLevel::kError:
      return "E";
    case LogLevel::kWarning:
      return "W";
    case LogLevel::kInfo:
      return "I";
    case LogLevel::kDebug:
      return "D";
    default:
      return "?";
  }
}

}  // namespace

LogLevel CurrentLogLevel() {
  // Read once; a function-local static is initialised on first use, not at
  // load time, so linking the library adds no global constructor.
  static const LogLevel level = ParseLevel(std::getenv("STREAMHAL_LOG_LEVEL"));
  return level;
}

bool LogEnabled(LogLevel level) {
  return level != LogLevel::kSilent && static_cast<int>(level) <= static_cast<int>(CurrentLogLevel());
}

void LogMessage(LogLevel level, absl::string_view message) {
  std::fprintf(stderr, "[streamhal %s] %.*s\n", LevelTag(level), static_cast<int>(message.size()),
               message.data());
}

}  // namespace streamhal
