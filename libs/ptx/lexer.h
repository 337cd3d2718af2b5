// Tokens of PTX text. Words keep their dots ("ld.global.f32", ".reg",
// "%tid.x"), so the parser splits opcodes from modifiers itself.
#ifndef STREAMHAL_PTX_LEXER_H_
#define STREAMHAL_PTX_LEXER_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace streamhal::ptx {

struct Token {
  enum class Kind { kWord, kNumber, kString, kPunct, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;  // kPunct: the single character
  int line = 0;
};

// Splits PTX into tokens, dropping // and /* */ comments. A byte that starts
// no token is an error naming its line ("ptx line N: ...").
absl::StatusOr<std::vector<Token>> Lex(std::string_view text);

}  // namespace streamhal::ptx

#endif  // STREAMHAL_PTX_LEXER_H_
