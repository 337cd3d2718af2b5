#include "hip_binding/src/error_strings.h"

#include <climits>
#include <cstdint>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "hip/hip_runtime_api.h"

namespace streamhal::hip {
namespace {

struct Enumerator {
  hipError_t value;
  const char* spelling;  // from the preprocessor, so it cannot drift from the code
  int published;         // the number HIP 6.0 publishes
};

#define SH_ENUMERATOR(e, n) \
  Enumerator { e, #e, n }

// Every current hipError_t enumerator of HIP 6.0, one per distinct value.
constexpr Enumerator kEnumerators[] = {
    SH_ENUMERATOR(hipSuccess, 0),
    SH_ENUMERATOR(hipErrorInvalidValue, 1),
    SH_ENUMERATOR(hipErrorOutOfMemory, 2),
    SH_ENUMERATOR(hipErrorNotInitialized, 3),
    SH_ENUMERATOR(hipErrorDeinitialized, 4),
    SH_ENUMERATOR(hipErrorProfilerDisabled, 5),
    SH_ENUMERATOR(hipErrorProfilerNotInitialized, 6),
    SH_ENUMERATOR(hipErrorProfilerAlreadyStarted, 7),
    SH_ENUMERATOR(hipErrorProfilerAlreadyStopped, 8),
    SH_ENUMERATOR(hipErrorInvalidConfiguration, 9),
    SH_ENUMERATOR(hipErrorInvalidPitchValue, 12),
    SH_ENUMERATOR(hipErrorInvalidSymbol, 13),
    SH_ENUMERATOR(hipErrorInvalidDevicePointer, 17),
    SH_ENUMERATOR(hipErrorInvalidMemcpyDirection, 21),
    SH_ENUMERATOR(hipErrorInsufficientDriver, 35),
    SH_ENUMERATOR(hipErrorMissingConfiguration, 52),
    SH_ENUMERATOR(hipErrorPriorLaunchFailure, 53),
    SH_ENUMERATOR(hipErrorInvalidDeviceFunction, 98),
    SH_ENUMERATOR(hipErrorNoDevice, 100),
    SH_ENUMERATOR(hipErrorInvalidDevice, 101),
    SH_ENUMERATOR(hipErrorInvalidImage, 200),
    SH_ENUMERATOR(hipErrorInvalidContext, 201),
    SH_ENUMERATOR(hipErrorContextAlreadyCurrent, 202),
    SH_ENUMERATOR(hipErrorMapFailed, 205),
    SH_ENUMERATOR(hipErrorUnmapFailed, 206),
    SH_ENUMERATOR(hipErrorArrayIsMapped, 207),
    SH_ENUMERATOR(hipErrorAlreadyMapped, 208),
    SH_ENUMERATOR(hipErrorNoBinaryForGpu, 209),
    SH_ENUMERATOR(hipErrorAlreadyAcquired, 210),
    SH_ENUMERATOR(hipErrorNotMapped, 211),
    SH_ENUMERATOR(hipErrorNotMappedAsArray, 212),
    SH_ENUMERATOR(hipErrorNotMappedAsPointer, 213),
    SH_ENUMERATOR(hipErrorECCNotCorrectable, 214),
    SH_ENUMERATOR(hipErrorUnsupportedLimit, 215),
    SH_ENUMERATOR(hipErrorContextAlreadyInUse, 216),
    SH_ENUMERATOR(hipErrorPeerAccessUnsupported, 217),
    SH_ENUMERATOR(hipErrorInvalidKernelFile, 218),
    SH_ENUMERATOR(hipErrorInvalidGraphicsContext, 219),
    SH_ENUMERATOR(hipErrorInvalidSource, 300),
    SH_ENUMERATOR(hipErrorFileNotFound, 301),
    SH_ENUMERATOR(hipErrorSharedObjectSymbolNotFound, 302),
    SH_ENUMERATOR(hipErrorSharedObjectInitFailed, 303),
    SH_ENUMERATOR(hipErrorOperatingSystem, 304),
    SH_ENUMERATOR(hipErrorInvalidHandle, 400),
    SH_ENUMERATOR(hipErrorIllegalState, 401),
    SH_ENUMERATOR(hipErrorNotFound, 500),
    SH_ENUMERATOR(hipErrorNotReady, 600),
    SH_ENUMERATOR(hipErrorIllegalAddress, 700),
    SH_ENUMERATOR(hipErrorLaunchOutOfResources, 701),
    SH_ENUMERATOR(hipErrorLaunchTimeOut, 702),
    SH_ENUMERATOR(hipErrorPeerAccessAlreadyEnabled, 704),
    SH_ENUMERATOR(hipErrorPeerAccessNotEnabled, 705),
    SH_ENUMERATOR(hipErrorSetOnActiveProcess, 708),
    SH_ENUMERATOR(hipErrorContextIsDestroyed, 709),
    SH_ENUMERATOR(hipErrorAssert, 710),
    SH_ENUMERATOR(hipErrorHostMemoryAlreadyRegistered, 712),
    SH_ENUMERATOR(hipErrorHostMemoryNotRegistered, 713),
    SH_ENUMERATOR(hipErrorLaunchFailure, 719),
    SH_ENUMERATOR(hipErrorCooperativeLaunchTooLarge, 720),
    SH_ENUMERATOR(hipErrorNotSupported, 801),
    SH_ENUMERATOR(hipErrorStreamCaptureUnsupported, 900),
    SH_ENUMERATOR(hipErrorStreamCaptureInvalidated, 901),
    SH_ENUMERATOR(hipErrorStreamCaptureMerge, 902),
    SH_ENUMERATOR(hipErrorStreamCaptureUnmatched, 903),
    SH_ENUMERATOR(hipErrorStreamCaptureUnjoined, 904),
    SH_ENUMERATOR(hipErrorStreamCaptureIsolation, 905),
    SH_ENUMERATOR(hipErrorStreamCaptureImplicit, 906),
    SH_ENUMERATOR(hipErrorCapturedEvent, 907),
    SH_ENUMERATOR(hipErrorStreamCaptureWrongThread, 908),
    SH_ENUMERATOR(hipErrorGraphExecUpdateFailure, 910),
    SH_ENUMERATOR(hipErrorUnknown, 999),
    SH_ENUMERATOR(hipErrorRuntimeMemory, 1052),
    SH_ENUMERATOR(hipErrorRuntimeOther, 1053),
    SH_ENUMERATOR(hipErrorTbd, 1054),
};

// Deprecated spellings and the current enumerator that shares their value.
constexpr Enumerator kDeprecated[] = {
    {hipErrorMemoryAllocation, "hipErrorOutOfMemory", 2},
    {hipErrorInitializationError, "hipErrorNotInitialized", 3},
    {hipErrorMapBufferObjectFailed, "hipErrorMapFailed", 205},
    {hipErrorInvalidResourceHandle, "hipErrorInvalidHandle", 400},
};

#undef SH_ENUMERATOR

constexpr bool AllMatchPublishedValues() {
  for (const Enumerator& e : kEnumerators) {
    if (static_cast<int>(e.value) != e.published) return false;
  }
  for (const Enumerator& e : kDeprecated) {
    if (static_cast<int>(e.value) != e.published) return false;
  }
  return true;
}
static_assert(AllMatchPublishedValues(), "hipError_t must keep HIP's published numbers");
static_assert(sizeof(kEnumerators) / sizeof(kEnumerators[0]) == 74,
              "HIP 6.0 has 74 distinct hipError_t values");

// A few other published numbers of the same header, checked where it is
// cheapest: a wrong enumerator order shifts every attribute after it.
static_assert(HIP_VERSION == 60000000);
static_assert(hipDeviceAttributeMaxGridDimX == 29);
static_assert(hipDeviceAttributeMultiprocessorCount == 63);
static_assert(hipDeviceAttributePersistingL2CacheMaxSize == 70);
static_assert(hipDeviceAttributeMemoryPoolsSupported == 88);
static_assert(hipDeviceAttributeMemoryPoolSupportedHandleTypes == 91);
static_assert(hipDeviceAttributeCudaCompatibleEnd == 9999);
static_assert(hipDeviceAttributePhysicalMultiProcessorCount == 10015);
static_assert(hipMemoryTypeArray == 10 && hipMemoryTypeUnified == 11);
static_assert(hipDeviceLmemResizeToMax == 0x10);

TEST(HipHeaderTest, LaunchParameterKeysAndPerThreadStreamHaveHipValues) {
  EXPECT_EQ(reinterpret_cast<uintptr_t>(HIP_LAUNCH_PARAM_BUFFER_POINTER), 1u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(HIP_LAUNCH_PARAM_BUFFER_SIZE), 2u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(HIP_LAUNCH_PARAM_END), 3u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(hipStreamPerThread), 2u);
}

// Values of an unscoped enum are only defined within the range its
// enumerators span (0..2047 here), so the sweep stays inside it.
constexpr int kLastRepresentable = 2047;

TEST(ErrorStringsTest, NameIsTheEnumeratorSpelling) {
  for (const Enumerator& e : kEnumerators) {
    ASSERT_NE(ErrorName(e.value), nullptr) << e.spelling;
    EXPECT_STREQ(ErrorName(e.value), e.spelling);
  }
}

TEST(ErrorStringsTest, DeprecatedSpellingsGetTheCurrentName) {
  for (const Enumerator& e : kDeprecated) {
    ASSERT_NE(ErrorName(e.value), nullptr) << e.spelling;
    EXPECT_STREQ(ErrorName(e.value), e.spelling);
  }
}

TEST(ErrorStringsTest, EveryEnumeratorHasItsOwnDescription) {
  std::set<std::string> seen;
  for (const Enumerator& e : kEnumerators) {
    const char* description = ErrorString(e.value);
    ASSERT_NE(description, nullptr) << e.spelling;
    EXPECT_STRNE(description, "") << e.spelling;
    EXPECT_STRNE(description, e.spelling) << e.spelling;
    EXPECT_TRUE(seen.insert(description).second)
        << e.spelling << " repeats \"" << description << "\"";
  }
}

TEST(ErrorStringsTest, ValuesThatAreNotEnumeratorsHaveNoNameAndNoDescription) {
  std::set<int> known;
  for (const Enumerator& e : kEnumerators) known.insert(e.published);
  for (int v = 0; v <= kLastRepresentable; ++v) {
    if (known.count(v) != 0) continue;
    EXPECT_EQ(ErrorName(v), nullptr) << v;
    EXPECT_EQ(ErrorString(v), nullptr) << v;
  }
  // A C caller may pass numbers outside the enum's range too.
  for (int v : {-1, kLastRepresentable + 1, 99999, INT_MAX, INT_MIN}) {
    EXPECT_EQ(ErrorName(v), nullptr) << v;
    EXPECT_EQ(ErrorString(v), nullptr) << v;
  }
}

}  // namespace
}  // namespace streamhal::hip
