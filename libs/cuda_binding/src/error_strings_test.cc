#include "cuda_binding/src/error_strings.h"

#include <cctype>
#include <climits>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace streamhal::cuda {
namespace {

struct Published {
  int value;
  const char* spelling;
};

// Every CUresult value CUDA 12.0 publishes, written out as plain numbers so a
// wrong value in cuda.h or a wrong name in the table shows up here.
constexpr Published kPublished[] = {
    {0, "CUDA_SUCCESS"},
    {1, "CUDA_ERROR_INVALID_VALUE"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"},
    {4, "CUDA_ERROR_DEINITIALIZED"},
    {5, "CUDA_ERROR_PROFILER_DISABLED"},
    {6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED"},
    {7, "CUDA_ERROR_PROFILER_ALREADY_STARTED"},
    {8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED"},
    {34, "CUDA_ERROR_STUB_LIBRARY"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
    {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"},
    {102, "CUDA_ERROR_DEVICE_NOT_LICENSED"},
    {200, "CUDA_ERROR_INVALID_IMAGE"},
    {201, "CUDA_ERROR_INVALID_CONTEXT"},
    {202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT"},
    {205, "CUDA_ERROR_MAP_FAILED"},
    {206, "CUDA_ERROR_UNMAP_FAILED"},
    {207, "CUDA_ERROR_ARRAY_IS_MAPPED"},
    {208, "CUDA_ERROR_ALREADY_MAPPED"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
    {210, "CUDA_ERROR_ALREADY_ACQUIRED"},
    {211, "CUDA_ERROR_NOT_MAPPED"},
    {212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY"},
    {213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER"},
    {214, "CUDA_ERROR_ECC_UNCORRECTABLE"},
    {215, "CUDA_ERROR_UNSUPPORTED_LIMIT"},
    {216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE"},
    {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"},
    {218, "CUDA_ERROR_INVALID_PTX"},
    {219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT"},
    {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
    {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED"},
    {224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY"},
    {300, "CUDA_ERROR_INVALID_SOURCE"},
    {301, "CUDA_ERROR_FILE_NOT_FOUND"},
    {302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND"},
    {303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"},
    {304, "CUDA_ERROR_OPERATING_SYSTEM"},
    {400, "CUDA_ERROR_INVALID_HANDLE"},
    {401, "CUDA_ERROR_ILLEGAL_STATE"},
    {500, "CUDA_ERROR_NOT_FOUND"},
    {600, "CUDA_ERROR_NOT_READY"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT"},
    {703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING"},
    {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"},
    {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED"},
    {708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE"},
    {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED"},
    {710, "CUDA_ERROR_ASSERT"},
    {711, "CUDA_ERROR_TOO_MANY_PEERS"},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"},
    {714, "CUDA_ERROR_HARDWARE_STACK_ERROR"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"},
    {718, "CUDA_ERROR_INVALID_PC"},
    {719, "CUDA_ERROR_LAUNCH_FAILED"},
    {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"},
    {800, "CUDA_ERROR_NOT_PERMITTED"},
    {801, "CUDA_ERROR_NOT_SUPPORTED"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
    {805, "CUDA_ERROR_MPS_CONNECTION_FAILED"},
    {806, "CUDA_ERROR_MPS_RPC_FAILURE"},
    {807, "CUDA_ERROR_MPS_SERVER_NOT_READY"},
    {808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED"},
    {809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED"},
    {810, "CUDA_ERROR_MPS_CLIENT_TERMINATED"},
    {811, "CUDA_ERROR_CDP_NOT_SUPPORTED"},
    {812, "CUDA_ERROR_CDP_VERSION_MISMATCH"},
    {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"},
    {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"},
    {902, "CUDA_ERROR_STREAM_CAPTURE_MERGE"},
    {903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED"},
    {904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED"},
    {905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION"},
    {906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT"},
    {907, "CUDA_ERROR_CAPTURED_EVENT"},
    {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD"},
    {909, "CUDA_ERROR_TIMEOUT"},
    {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE"},
    {911, "CUDA_ERROR_EXTERNAL_DEVICE"},
    {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE"},
    {999, "CUDA_ERROR_UNKNOWN"},
};

TEST(ErrorStringsTest, EveryPublishedResultHasItsSpellingAsName) {
  for (const Published& p : kPublished) {
    const char* name = ResultName(p.value);
    ASSERT_NE(name, nullptr) << "no name for " << p.value;
    EXPECT_STREQ(name, p.spelling) << "value " << p.value;
  }
}

TEST(ErrorStringsTest, EveryPublishedResultHasALowerCaseDescription) {
  for (const Published& p : kPublished) {
    const char* text = ResultString(p.value);
    ASSERT_NE(text, nullptr) << p.spelling;
    ASSERT_GT(std::strlen(text), 0u) << p.spelling;
    EXPECT_TRUE(std::islower(static_cast<unsigned char>(text[0])))
        << p.spelling << ": \"" << text << "\"";
    EXPECT_EQ(std::strchr(text, '\n'), nullptr) << p.spelling;
  }
}

TEST(ErrorStringsTest, NamesMatchEnumeratorsByValue) {
  EXPECT_STREQ(ResultName(CUDA_SUCCESS), "CUDA_SUCCESS");
  EXPECT_STREQ(ResultName(CUDA_ERROR_INVALID_VALUE), "CUDA_ERROR_INVALID_VALUE");
  EXPECT_STREQ(ResultName(CUDA_ERROR_NOT_READY), "CUDA_ERROR_NOT_READY");
  EXPECT_STREQ(ResultName(CUDA_ERROR_UNKNOWN), "CUDA_ERROR_UNKNOWN");
}

// Values inside the enum's range that CUDA 12.0 leaves unassigned (225 and
// 402 were only assigned by later releases).
TEST(ErrorStringsTest, UnassignedValuesHaveNoNameOrDescription) {
  for (int value : {9, 33, 35, 103, 203, 225, 305, 402, 501, 706, 813, 913, 998, 1000, 1023}) {
    EXPECT_EQ(ResultName(value), nullptr) << value;
    EXPECT_EQ(ResultString(value), nullptr) << value;
  }
}

// A C caller may pass numbers outside the enum's range: they are no result.
TEST(ErrorStringsTest, NumbersOutsideTheEnumHaveNoNameOrDescription) {
  for (int value : {-1, 1024, 12345, INT_MAX, INT_MIN}) {
    EXPECT_EQ(ResultName(value), nullptr) << value;
    EXPECT_EQ(ResultString(value), nullptr) << value;
  }
}

// Reads the CUresult enumerators straight out of the public header so that an
// enumerator added to cuda.h without a row above fails here.
std::map<std::string, int> HeaderEnumerators() {
  std::string path(__FILE__);
  path.resize(path.rfind('/') + 1);
  path += "../include/cuda.h";
  std::ifstream in(path);
  if (!in) return {};
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  const size_t begin = text.find("typedef enum cudaError_enum");
  const size_t end = text.find("} CUresult;", begin);
  if (begin == std::string::npos || end == std::string::npos) return {};
  const std::string body = text.substr(begin, end - begin);
  std::map<std::string, int> out;
  const std::regex entry(R"((CUDA_[A-Z0-9_]+)\s*=\s*([0-9]+))");
  for (std::sregex_iterator it(body.begin(), body.end(), entry), last; it != last; ++it) {
    out[(*it)[1].str()] = std::stoi((*it)[2].str());
  }
  return out;
}

TEST(ErrorStringsTest, HeaderEnumeratorsAreExactlyThePublishedOnes) {
  const std::map<std::string, int> header = HeaderEnumerators();
  ASSERT_FALSE(header.empty()) << "could not read the CUresult enum of cuda.h";
  std::map<std::string, int> published;
  for (const Published& p : kPublished) published[p.spelling] = p.value;
  EXPECT_EQ(header, published);
}

}  // namespace
}  // namespace streamhal::cuda
