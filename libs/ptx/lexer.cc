#include "ptx/lexer.h"

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace streamhal::ptx {
namespace {

bool IsWordStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%' ||
         c == '.';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsWordChar(char c) { return IsWordStart(c) || IsDigit(c); }
bool IsHexDigit(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

}  // namespace

absl::StatusOr<std::vector<Token>> Lex(std::string_view text) {
  std::vector<Token> tokens;
  int line = 1;
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      while (i < n && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      const int start = line;
      i += 2;
      while (i + 1 < n && !(text[i] == '*' && text[i + 1] == '/')) {
        if (text[i] == '\n') ++line;
        ++i;
      }
      if (i + 1 >= n) {
        return absl::InvalidArgumentError(
            absl::StrFormat("ptx line %d: unterminated /* comment", start));
      }
      i += 2;
    } else if (IsWordStart(c)) {
      const size_t start = i;
      while (i < n && IsWordChar(text[i])) ++i;
      tokens.push_back({Token::Kind::kWord, std::string(text.substr(start, i - start)), line});
    } else if (IsDigit(c)) {
      // Decimal, 0x hex, 0f/0d hex floats, decimal floats with exponent, and
      // the U suffix of unsigned literals.
      const size_t start = i;
      if (c == '0' && i + 1 < n &&
          (text[i + 1] == 'x' || text[i + 1] == 'X' || text[i + 1] == 'f' || text[i + 1] == 'F' ||
           text[i + 1] == 'd' || text[i + 1] == 'D')) {
        i += 2;
        while (i < n && IsHexDigit(text[i])) ++i;
      } else {
        while (i < n && (IsDigit(text[i]) || text[i] == '.')) ++i;
        if (i < n && (text[i] == 'e' || text[i] == 'E')) {
          ++i;
          if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
          while (i < n && IsDigit(text[i])) ++i;
        }
      }
      if (i < n && (text[i] == 'U' || text[i] == 'u')) ++i;
      tokens.push_back({Token::Kind::kNumber, std::string(text.substr(start, i - start)), line});
    } else if (c == '"') {
      const size_t start = ++i;
      while (i < n && text[i] != '"' && text[i] != '\n') ++i;
      if (i >= n || text[i] != '"') {
        return absl::InvalidArgumentError(
            absl::StrFormat("ptx line %d: unterminated string", line));
      }
      tokens.push_back({Token::Kind::kString, std::string(text.substr(start, i - start)), line});
      ++i;
    } else if (std::string_view("{}()[],;:@!+-<>|=").find(c) != std::string_view::npos) {
      tokens.push_back({Token::Kind::kPunct, std::string(1, c), line});
      ++i;
    } else {
      return absl::InvalidArgumentError(absl::StrFormat("ptx line %d: unexpected character 0x%02x",
                                                        line, static_cast<unsigned char>(c)));
    }
  }
  tokens.push_back({Token::Kind::kEnd, "", line});
  return tokens;
}

}  // namespace streamhal::ptx
