#include "ptx/lexer.h"

#include <gtest/gtest.h>

namespace streamhal::ptx {
namespace {

TEST(PtxLexerTest, KeepsDotsInWordsAndDropsComments) {
  auto tokens = Lex("// header\nld.global.f32 %f1, [%rd4+8]; /* c\n */ mov.u32 %r1, %tid.x;");
  ASSERT_TRUE(tokens.ok()) << tokens.status();
  ASSERT_GE(tokens->size(), 10u);
  EXPECT_EQ((*tokens)[0].text, "ld.global.f32");
  EXPECT_EQ((*tokens)[0].line, 2);
  EXPECT_EQ((*tokens)[1].text, "%f1");
  EXPECT_EQ((*tokens)[3].text, "[");
  EXPECT_EQ((*tokens)[5].text, "+");
  EXPECT_EQ((*tokens)[6].kind, Token::Kind::kNumber);
  EXPECT_EQ((*tokens)[9].text, "mov.u32");
  EXPECT_EQ((*tokens)[9].line, 3);
  EXPECT_EQ((*tokens)[12].text, "%tid.x");
}

TEST(PtxLexerTest, LexesHexFloatLiterals) {
  auto tokens = Lex("0f3F800000 0d4000000000000000 0x1F 42U");
  ASSERT_TRUE(tokens.ok());
  EXPECT_EQ((*tokens)[0].text, "0f3F800000");
  EXPECT_EQ((*tokens)[1].text, "0d4000000000000000");
  EXPECT_EQ((*tokens)[2].text, "0x1F");
  EXPECT_EQ((*tokens)[3].text, "42U");
}

TEST(PtxLexerTest, StrayCharacterNamesItsLine) {
  auto tokens = Lex(".version 9.0\n\n  #");
  ASSERT_FALSE(tokens.ok());
  EXPECT_NE(tokens.status().message().find("ptx line 3"), std::string::npos) << tokens.status();
}

}  // namespace
}  // namespace streamhal::ptx
