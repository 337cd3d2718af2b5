#include "ptx/translate.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "spirv-tools/libspirv.hpp"

namespace streamhal::ptx {
namespace {

std::string ReadCorpus(const std::string& name) {
  std::ifstream in(std::string(STREAMHAL_PTX_CORPUS_DIR) + "/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Validates with Vulkan 1.2 rules (the environment streamhal targets).
std::string Validate(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string messages;
  tools.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t& pos, const char* message) {
        messages += std::to_string(pos.index) + ": " + message + "\n";
      });
  if (!tools.Validate(words)) {
    std::string text;
    tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_INDENT);
    return messages + "\n" + text;
  }
  return "";
}

std::string Disassemble(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string text;
  tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_NONE);
  return text;
}

class CorpusTest : public testing::TestWithParam<const char*> {};

TEST_P(CorpusTest, TranslatesToValidVulkanSpirv) {
  const std::string text = ReadCorpus(std::string(GetParam()) + ".ptx");
  ASSERT_FALSE(text.empty()) << GetParam();
  auto spirv = TranslatePtx(text);
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
  // nvcc's CFGs are reducible: structured loops and selections, no dispatcher.
  EXPECT_EQ(Disassemble(*spirv).find("OpSwitch"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Nvcc, CorpusTest,
                         testing::Values("vector_add", "saxpy", "grid_stride", "block_reduce",
                                         "histogram", "early_return", "dyn_shared", "module_vars",
                                         "local_array", "bit_ops", "float_to_int", "atomics_ext",
                                         "generic_shared", "bit_find", "device_calls",
                                         "link_call_a", "matmul_tiled", "transpose_padded",
                                         "prefix_scan", "bitonic_sort", "mandelbrot", "nbody",
                                         "stencil", "int64_math", "switch_returns", "struct_param",
                                         "texture_fetch", "warp_reduce", "warp_vote",
                                         "warp_shuffle", "warp_match", "warp_redux", "half_ops"));

constexpr char kHeader[] = ".version 8.0\n.target sm_75\n.address_size 64\n";

TEST(PtxTranslateTest, UnsupportedInstructionNamesItsLine) {
  const std::string text = std::string(kHeader) +
                           ".visible .entry k()\n{\n .reg .b32 %r<3>;\n"
                           " sad.u32 %r1, %r2, %r2, %r2;\n ret;\n}\n";
  auto spirv = TranslatePtx(text);
  ASSERT_FALSE(spirv.ok());
  EXPECT_EQ(spirv.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(spirv.status().message().find("ptx line 7"), std::string::npos) << spirv.status();
  EXPECT_NE(spirv.status().message().find("sad"), std::string::npos) << spirv.status();
}

TEST(PtxTranslateTest, SyntaxErrorNamesItsLine) {
  const std::string text = std::string(kHeader) + ".visible .entry k()\n{\n mov.u32 %r1 1;\n}\n";
  auto spirv = TranslatePtx(text);
  ASSERT_FALSE(spirv.ok());
  EXPECT_NE(spirv.status().message().find("ptx line 6"), std::string::npos) << spirv.status();
}

TEST(PtxTranslateTest, ModuleWithoutKernelsIsAnError) { EXPECT_FALSE(TranslatePtx(kHeader).ok()); }

TEST(PtxTranslateTest, StructParameterReadsAsWords) {
  const std::string text =
      std::string(kHeader) +
      ".visible .entry k(.param .align 8 .b8 k_p[16], .param .u64 out)\n{\n"
      " .reg .b32 %r<3>; .reg .b64 %rd<4>;\n"
      " ld.param.u32 %r1, [k_p+4];\n ld.param.u64 %rd1, [k_p+8];\n"
      " ld.param.u64 %rd2, [out];\n cvta.to.global.u64 %rd3, %rd2;\n"
      " st.global.u32 [%rd3], %r1;\n st.global.u64 [%rd3+8], %rd1;\n ret;\n}\n";
  auto spirv = TranslatePtx(text);
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
}

// A struct's char and short members (`ld.param.u8 [k_p+5]`) are their bits
// of the aligned word; a misaligned sub-word read is still refused.
TEST(PtxTranslateTest, StructParameterByteAndHalfMembersRead) {
  const std::string body =
      " .reg .b16 %rs<3>; .reg .b32 %r<3>; .reg .b64 %rd<4>;\n"
      " ld.param.u8 %rs1, [k_p+5];\n ld.param.s16 %rs2, [k_p+10];\n"
      " ld.param.u64 %rd2, [out];\n cvta.to.global.u64 %rd3, %rd2;\n"
      " st.global.u16 [%rd3], %rs1;\n st.global.u16 [%rd3+2], %rs2;\n ret;\n}\n";
  const std::string head =
      std::string(kHeader) + ".visible .entry k(.param .align 8 .b8 k_p[16], .param .u64 out)\n{\n";
  auto spirv = TranslatePtx(head + body);
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
  const std::string misaligned = " .reg .b16 %rs<3>;\n ld.param.u16 %rs1, [k_p+5];\n ret;\n}\n";
  EXPECT_FALSE(TranslatePtx(head + misaligned).ok());
}

TEST(PtxTranslateTest, IrreducibleLoopFallsBackToTheDispatcher) {
  // $A and $B form a cycle entered at both: no natural loop.
  const std::string text = std::string(kHeader) +
                           ".visible .entry k(.param .u32 n)\n{\n"
                           " .reg .pred %p<3>; .reg .b32 %r<4>;\n"
                           " ld.param.u32 %r1, [n];\n setp.eq.u32 %p1, %r1, 0;\n @%p1 bra $B;\n"
                           "$A:\n add.u32 %r1, %r1, 1;\n setp.lt.u32 %p2, %r1, 10;\n"
                           " @%p2 bra $B;\n ret;\n"
                           "$B:\n add.u32 %r1, %r1, 2;\n setp.lt.u32 %p2, %r1, 20;\n"
                           " @%p2 bra $A;\n ret;\n}\n";
  auto spirv = TranslatePtx(text);
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
  EXPECT_NE(Disassemble(*spirv).find("OpSwitch"), std::string::npos);
}

TEST(PtxTranslateTest, LoopWithSeveralExitsIsStructured) {
  const std::string text = std::string(kHeader) +
                           ".visible .entry k(.param .u64 out)\n{\n"
                           " .reg .pred %p<3>; .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
                           " ld.param.u64 %rd1, [out];\n mov.u32 %r1, 0;\n"
                           "$L:\n add.u32 %r1, %r1, 1;\n setp.eq.u32 %p1, %r1, 7;\n"
                           " @%p1 bra $E;\n setp.lt.u32 %p2, %r1, 100;\n @%p2 bra $L;\n"
                           " st.global.u32 [%rd1], %r1;\n ret;\n"
                           "$E:\n @%p2 ret;\n st.global.u32 [%rd1+4], %r1;\n ret;\n}\n";
  auto spirv = TranslatePtx(text);
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
  const std::string dis = Disassemble(*spirv);
  EXPECT_EQ(dis.find("OpSwitch"), std::string::npos);
  EXPECT_NE(dis.find("OpLoopMerge"), std::string::npos);
}

// A kernel body between a header declaring registers and `ret`.
std::string Kernel(const std::string& body) {
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 out)\n{\n"
         " .reg .pred %p<3>; .reg .b16 %rs<3>; .reg .b32 %r<9>; .reg .b64 %rd<9>;\n"
         " .reg .f32 %f<3>;\n .shared .align 8 .b8 tile[64];\n"
         " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n cvt.u64.u32 %rd2, %r1;\n" +
         body + " ret;\n}\n";
}

TEST(PtxTranslateTest, BitInstructionsTranslate) {
  auto spirv = TranslatePtx(Kernel(
      " popc.b32 %r2, %r1;\n popc.b64 %r3, %rd2;\n clz.b32 %r4, %r1;\n clz.b64 %r5, %rd2;\n"
      " brev.b32 %r6, %r1;\n brev.b64 %rd3, %rd2;\n bfe.u32 %r2, %r1, %r3, 7;\n"
      " bfe.s32 %r3, %r1, 4, %r4;\n bfe.u64 %rd4, %rd2, %r1, 40;\n bfe.s64 %rd5, %rd2, 3, %r2;\n"
      " bfi.b32 %r7, %r1, %r2, 5, %r3;\n bfi.b64 %rd6, %rd2, %rd3, %r1, 33;\n"
      " prmt.b32 %r8, %r1, %r2, %r3;\n prmt.b32 %r8, %r8, 0, 0x8a01;\n"
      " add.sat.s32 %r2, %r1, %r8;\n sub.sat.s32 %r3, %r2, -5;\n"
      " mov.b64 %rd7, {%r1, %r2};\n mov.b64 {%r3, %r4}, %rd7;\n mov.b32 %r5, {%rs1, %rs2};\n"
      " st.global.u32 [%rd1], %r3;\n st.global.u64 [%rd1+8], %rd6;\n"));
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
  const std::string dis = Disassemble(*spirv);
  EXPECT_NE(dis.find("OpBitCount"), std::string::npos);
  EXPECT_NE(dis.find("OpBitReverse"), std::string::npos);
}

TEST(PtxTranslateTest, BitFindAndDoubleAtomicAddTranslate) {
  auto spirv = TranslatePtx(
      Kernel(" bfind.u32 %r2, %r1;\n bfind.s32 %r3, %r1;\n bfind.shiftamt.u64 %r4, %rd2;\n"
             " bfind.s64 %r5, %rd2;\n .reg .f64 %fd<3>;\n cvt.rn.f64.u32 %fd1, %r5;\n"
             " atom.global.add.f64 %fd2, [%rd1], %fd1;\n red.global.add.f64 [%rd1+8], %fd2;\n"
             " st.global.u32 [%rd1], %r4;\n"));
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
}

TEST(PtxTranslateTest, UnsupportedFormsOfBitInstructionsNameTheirLine) {
  for (const char* body : {" prmt.b32.f4e %r2, %r1, %r1, 1;\n", " mul.sat.s32 %r2, %r1, %r1;\n",
                           " add.sat.u32 %r2, %r1, %r1;\n", " popc.b16 %rs1, %rs2;\n"}) {
    auto spirv = TranslatePtx(Kernel(body));
    ASSERT_FALSE(spirv.ok()) << body;
    EXPECT_EQ(spirv.status().code(), absl::StatusCode::kUnimplemented) << spirv.status();
    EXPECT_NE(spirv.status().message().find("ptx line 12"), std::string::npos) << spirv.status();
  }
}

TEST(PtxTranslateTest, AtomicsAndNarrowStoresTranslate) {
  auto spirv = TranslatePtx(Kernel(
      " atom.global.cas.b32 %r2, [%rd1], 0, %r1;\n atom.global.cas.b64 %rd3, [%rd1+8], %rd2, 7;\n"
      " atom.shared.cas.b32 %r3, [tile+4], %r1, 1;\n atom.global.inc.u32 %r4, [%rd1], 9;\n"
      " atom.shared.dec.u32 %r5, [tile], %r1;\n atom.shared.add.f32 %f1, [tile+8], 0f3F800000;\n"
      " red.shared.add.f32 [tile+12], %f1;\n st.global.u8 [%rd1+3], %r1;\n"
      " st.global.u16 [%rd1+6], %rs1;\n st.shared.u8 [tile+17], %r2;\n"
      " st.shared.b16 [tile+18], %rs2;\n ld.global.s8 %r6, [%rd1+1];\n"
      " ld.shared.s16 %r7, [tile+2];\n st.global.u32 [%rd1], %r7;\n"));
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
  const std::string dis = Disassemble(*spirv);
  EXPECT_NE(dis.find("OpAtomicCompareExchange"), std::string::npos);
  EXPECT_NE(dis.find("OpAtomicAnd"), std::string::npos);
}

TEST(PtxTranslateTest, SixtyFourBitSharedAtomicIsUnsupported) {
  auto spirv = TranslatePtx(Kernel(" atom.shared.cas.b64 %rd3, [tile], %rd2, 7;\n"));
  ASSERT_FALSE(spirv.ok());
  EXPECT_EQ(spirv.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(spirv.status().message().find("ptx line 12"), std::string::npos) << spirv.status();
}

TEST(PtxTranslateTest, GenericSharedAddressesPickTheirWindowAtRunTime) {
  auto spirv = TranslatePtx(
      Kernel(" mov.u64 %rd3, tile;\n cvta.shared.u64 %rd4, %rd3;\n"
             " setp.eq.u32 %p1, %r1, 0;\n selp.b64 %rd5, %rd4, %rd1, %p1;\n"
             " ld.u32 %r2, [%rd5+4];\n st.u16 [%rd5+2], %rs1;\n st.v2.u32 [%rd5+8], {%r2, %r2};\n"
             " cvta.to.shared.u32 %r3, %rd4;\n st.shared.u32 [%r3], %r2;\n"));
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
  // The shared window's base, 0xfffff00000000000.
  constexpr char kWindow[] = "18446726481523507200";
  EXPECT_NE(Disassemble(*spirv).find(kWindow), std::string::npos);
  // Without cvta.shared, generic accesses stay plain global ones.
  auto plain = TranslatePtx(Kernel(" ld.u32 %r2, [%rd1];\n st.u32 [%rd1+4], %r2;\n"));
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(Disassemble(*plain).find(kWindow), std::string::npos);
  EXPECT_EQ(Disassemble(*plain).find("OpSelectionMerge"), std::string::npos);
}

TEST(PtxTranslateTest, GenericAtomicsBesideGenericSharedAddressesTestTheirWindow) {
  auto spirv =
      TranslatePtx(Kernel(" cvta.shared.u64 %rd4, tile;\n atom.add.u32 %r2, [%rd4], 1;\n"
                          " atom.inc.u32 %r3, [%rd4+4], 5;\n"
                          " atom.cas.b32 %r4, [%rd1], %r2, %r3;\n"));
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
  // 64-bit atomics have no shared form to fall back on.
  auto wide =
      TranslatePtx(Kernel(" cvta.shared.u64 %rd4, tile;\n atom.add.u64 %rd5, [%rd4], 1;\n"));
  ASSERT_FALSE(wide.ok());
  EXPECT_EQ(wide.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(wide.status().message().find("ptx line 13"), std::string::npos) << wide.status();
}

TEST(PtxTranslateTest, FloatToIntegerConversionsSaturate) {
  auto spirv = TranslatePtx(
      Kernel(" mov.f32 %f1, 0f7F800000;\n cvt.rzi.s32.f32 %r2, %f1;\n cvt.rni.u32.f32 %r3, %f1;\n"
             " cvt.rzi.s64.f32 %rd3, %f1;\n cvt.rmi.u64.f32 %rd4, %f1;\n"
             " cvt.rzi.sat.s16.f32 %rs1, %f1;\n cvt.rpi.u8.f32 %rs2, %f1;\n"
             " st.global.u32 [%rd1], %r2;\n"));
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
}

TEST(PtxTranslateTest, DeviceFunctionsBecomeSpirvFunctionsOfEachKernel) {
  auto spirv = TranslatePtx(ReadCorpus("device_calls.ptx"));
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  const std::string text = Disassemble(*spirv);
  // Both kernels and a copy of each function for the kernel that reaches it.
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("OpEntryPoint GLCompute"), 3u);
  // device_calls makes 5 calls and nested 2; call_barrier and
  // call_shared_pointer call one function each.
  EXPECT_EQ(count("OpFunctionCall"), 9u);
  // The 3 kernels, device_calls' 6 functions and the other kernels' one each.
  EXPECT_EQ(count("OpFunctionEnd"), 11u);
}

TEST(PtxTranslateTest, RegisterParametersAndNarrowParamAccessesTranslate) {
  const std::string text = std::string(kHeader) +
                           ".func (.reg .b32 rv) twice(.reg .b32 a, .param .align 4 .b8 s[4])\n{\n"
                           " .reg .b16 %rs<2>;\n ld.param.u8 %rs1, [s+1];\n"
                           " cvt.u32.u16 rv, %rs1;\n add.s32 rv, rv, a;\n ret;\n}\n"
                           ".visible .entry k(.param .u64 out)\n{\n"
                           " .reg .b32 %r<3>; .reg .b16 %rs<2>; .reg .b64 %rd<2>;\n"
                           " mov.u32 %r1, 5;\n mov.u16 %rs1, 9;\n"
                           " { .param .align 4 .b8 param0[4];\n st.param.b8 [param0+1], %rs1;\n"
                           "   call (%r2), twice, (%r1, param0);\n }\n"
                           " ld.param.u64 %rd1, [out];\n st.global.u32 [%rd1], %r2;\n ret;\n}\n";
  auto spirv = TranslatePtx(text);
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
}

TEST(PtxTranslateTest, RecursionIsUnsupportedNamingTheCall) {
  const std::string text = std::string(kHeader) +
                           ".func f()\n{\n call g, ();\n ret;\n}\n"
                           ".func g()\n{\n call f, ();\n ret;\n}\n"
                           ".visible .entry k()\n{\n call.uni f, ();\n ret;\n}\n";
  auto spirv = TranslatePtx(text);
  ASSERT_FALSE(spirv.ok());
  EXPECT_EQ(spirv.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(spirv.status().message().find("ptx line 11: unsupported recursion"), std::string::npos)
      << spirv.status();
}

TEST(PtxTranslateTest, CallOfAnExternFunctionWithoutDefinitionFails) {
  auto spirv = TranslatePtx(ReadCorpus("link_call_b.ptx"));
  ASSERT_FALSE(spirv.ok());
  EXPECT_NE(spirv.status().message().find("_Z11link_weightii"), std::string::npos)
      << spirv.status();
}

TEST(PtxTranslateTest, CallWithTheWrongArgumentCountIsAnError) {
  const std::string text = std::string(kHeader) +
                           ".func f(.param .b32 a)\n{\n ret;\n}\n"
                           ".visible .entry k()\n{\n call.uni f, ();\n ret;\n}\n";
  auto spirv = TranslatePtx(text);
  ASSERT_FALSE(spirv.ok());
  EXPECT_NE(spirv.status().message().find("ptx line 10"), std::string::npos) << spirv.status();
}

// A warp instruction needs every thread of the block at its barrier; a
// `.func` runs inside its caller's guard, so the load fails there.
TEST(PtxTranslateTest, WarpInstructionInADeviceFunctionIsUnsupportedNamingItsLine) {
  const std::string text = std::string(kHeader) +
                           ".func (.reg .b32 r) f(.reg .b32 a)\n{\n"
                           " shfl.sync.bfly.b32 r, a, 1, 31, -1;\n ret;\n}\n"
                           ".visible .entry k()\n{\n .reg .b32 %r<3>;\n"
                           " call.uni (%r1), f, (%r2);\n ret;\n}\n";
  auto spirv = TranslatePtx(text);
  ASSERT_FALSE(spirv.ok());
  EXPECT_EQ(spirv.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(spirv.status().message().find("ptx line 6: unsupported shfl in a .func"),
            std::string::npos)
      << spirv.status();
}

// Irreducible control flow has no uniform point for the warp barrier.
TEST(PtxTranslateTest, WarpInstructionUnderIrreducibleControlFlowIsUnsupported) {
  const std::string text = std::string(kHeader) +
                           ".visible .entry k(.param .u32 n)\n{\n"
                           " .reg .pred %p<3>; .reg .b32 %r<4>;\n"
                           " ld.param.u32 %r1, [n];\n setp.eq.u32 %p1, %r1, 0;\n @%p1 bra $B;\n"
                           "$A:\n activemask.b32 %r2;\n setp.lt.u32 %p2, %r1, 10;\n"
                           " @%p2 bra $B;\n ret;\n"
                           "$B:\n add.u32 %r1, %r1, 2;\n setp.lt.u32 %p2, %r1, 20;\n"
                           " @%p2 bra $A;\n ret;\n}\n";
  auto spirv = TranslatePtx(text);
  ASSERT_FALSE(spirv.ok());
  EXPECT_NE(spirv.status().message().find("ptx line 11: unsupported activemask"), std::string::npos)
      << spirv.status();
}

// A shuffle in a loop makes the loop uniform: its continue test is a
// workgroup-wide vote (an atomic on the warp scratch and a barrier).
TEST(PtxTranslateTest, LoopHoldingAWarpInstructionBecomesUniform) {
  auto spirv = TranslatePtx(ReadCorpus("warp_reduce.ptx"));
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  const std::string text = Disassemble(*spirv);
  EXPECT_NE(text.find("OpAtomicOr"), std::string::npos);
  EXPECT_NE(text.find("warp_down_loop_warp"), std::string::npos);
}

}  // namespace
}  // namespace streamhal::ptx
