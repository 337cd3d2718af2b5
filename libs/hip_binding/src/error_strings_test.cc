#include "hip_binding/src/error_strings.h"

#include <climits>
#include <cstdint>
#include <set>

#include "gtest/gtest.h"
#include "hip/hip_runtime_api.h"

namespace streamhal::hip {
namespace {

struct Enumerator {
  hipError_t value;
  const char* spelling;  // from the preprocessor, so it cannot drift from the code
  int published;         // the number HIP 6.0 publishes
  const char* text;      // what AMD's hipGetErrorString returns for it
};

#define SH_ENUMERATOR(e, n, text) \
  Enumerator { e, #e, n, text }

// Every current hipError_t enumerator of HIP 6.0, one per distinct value, with
// the description AMD's runtime gives it, character for character.
constexpr Enumerator kEnumerators[] = {
    SH_ENUMERATOR(hipSuccess, 0, "no error"),
    SH_ENUMERATOR(hipErrorInvalidValue, 1, "invalid argument"),
    SH_ENUMERATOR(hipErrorOutOfMemory, 2, "out of memory"),
    SH_ENUMERATOR(hipErrorNotInitialized, 3, "initialization error"),
    SH_ENUMERATOR(hipErrorDeinitialized, 4, "driver shutting down"),
    SH_ENUMERATOR(hipErrorProfilerDisabled, 5,
                  "profiler disabled while using external profiling tool"),
    SH_ENUMERATOR(hipErrorProfilerNotInitialized, 6, "profiler is not initialized"),
    SH_ENUMERATOR(hipErrorProfilerAlreadyStarted, 7, "profiler already started"),
    SH_ENUMERATOR(hipErrorProfilerAlreadyStopped, 8, "profiler already stopped"),
    SH_ENUMERATOR(hipErrorInvalidConfiguration, 9, "invalid configuration argument"),
    SH_ENUMERATOR(hipErrorInvalidPitchValue, 12, "invalid pitch argument"),
    SH_ENUMERATOR(hipErrorInvalidSymbol, 13, "invalid device symbol"),
    SH_ENUMERATOR(hipErrorInvalidDevicePointer, 17, "invalid device pointer"),
    SH_ENUMERATOR(hipErrorInvalidMemcpyDirection, 21, "invalid copy direction for memcpy"),
    SH_ENUMERATOR(hipErrorInsufficientDriver, 35,
                  "driver version is insufficient for runtime version"),
    SH_ENUMERATOR(hipErrorMissingConfiguration, 52, "__global__ function call is not configured"),
    SH_ENUMERATOR(hipErrorPriorLaunchFailure, 53, "unspecified launch failure in prior launch"),
    SH_ENUMERATOR(hipErrorInvalidDeviceFunction, 98, "invalid device function"),
    SH_ENUMERATOR(hipErrorNoDevice, 100, "no ROCm-capable device is detected"),
    SH_ENUMERATOR(hipErrorInvalidDevice, 101, "invalid device ordinal"),
    SH_ENUMERATOR(hipErrorInvalidImage, 200, "device kernel image is invalid"),
    SH_ENUMERATOR(hipErrorInvalidContext, 201, "invalid device context"),
    SH_ENUMERATOR(hipErrorContextAlreadyCurrent, 202, "context is already current context"),
    SH_ENUMERATOR(hipErrorMapFailed, 205, "mapping of buffer object failed"),
    SH_ENUMERATOR(hipErrorUnmapFailed, 206, "unmapping of buffer object failed"),
    SH_ENUMERATOR(hipErrorArrayIsMapped, 207, "array is mapped"),
    SH_ENUMERATOR(hipErrorAlreadyMapped, 208, "resource already mapped"),
    SH_ENUMERATOR(hipErrorNoBinaryForGpu, 209,
                  "no kernel image is available for execution on the device"),
    SH_ENUMERATOR(hipErrorAlreadyAcquired, 210, "resource already acquired"),
    SH_ENUMERATOR(hipErrorNotMapped, 211, "resource not mapped"),
    SH_ENUMERATOR(hipErrorNotMappedAsArray, 212, "resource not mapped as array"),
    SH_ENUMERATOR(hipErrorNotMappedAsPointer, 213, "resource not mapped as pointer"),
    SH_ENUMERATOR(hipErrorECCNotCorrectable, 214, "uncorrectable ECC error encountered"),
    SH_ENUMERATOR(hipErrorUnsupportedLimit, 215, "limit is not supported on this architecture"),
    SH_ENUMERATOR(hipErrorContextAlreadyInUse, 216,
                  "exclusive-thread device already in use by a different thread"),
    SH_ENUMERATOR(hipErrorPeerAccessUnsupported, 217,
                  "peer access is not supported between these two devices"),
    SH_ENUMERATOR(hipErrorInvalidKernelFile, 218, "invalid kernel file"),
    SH_ENUMERATOR(hipErrorInvalidGraphicsContext, 219, "invalid OpenGL or DirectX context"),
    SH_ENUMERATOR(hipErrorInvalidSource, 300, "device kernel image is invalid"),
    SH_ENUMERATOR(hipErrorFileNotFound, 301, "file not found"),
    SH_ENUMERATOR(hipErrorSharedObjectSymbolNotFound, 302, "shared object symbol not found"),
    SH_ENUMERATOR(hipErrorSharedObjectInitFailed, 303, "shared object initialization failed"),
    SH_ENUMERATOR(hipErrorOperatingSystem, 304,
                  "OS call failed or operation not supported on this OS"),
    SH_ENUMERATOR(hipErrorInvalidHandle, 400, "invalid resource handle"),
    SH_ENUMERATOR(hipErrorIllegalState, 401,
                  "the operation cannot be performed in the present state"),
    SH_ENUMERATOR(hipErrorNotFound, 500, "named symbol not found"),
    SH_ENUMERATOR(hipErrorNotReady, 600, "device not ready"),
    SH_ENUMERATOR(hipErrorIllegalAddress, 700, "an illegal memory access was encountered"),
    SH_ENUMERATOR(hipErrorLaunchOutOfResources, 701, "too many resources requested for launch"),
    SH_ENUMERATOR(hipErrorLaunchTimeOut, 702, "the launch timed out and was terminated"),
    SH_ENUMERATOR(hipErrorPeerAccessAlreadyEnabled, 704, "peer access is already enabled"),
    SH_ENUMERATOR(hipErrorPeerAccessNotEnabled, 705, "peer access has not been enabled"),
    SH_ENUMERATOR(hipErrorSetOnActiveProcess, 708,
                  "cannot set while device is active in this process"),
    SH_ENUMERATOR(hipErrorContextIsDestroyed, 709, "context is destroyed"),
    SH_ENUMERATOR(hipErrorAssert, 710, "device-side assert triggered"),
    SH_ENUMERATOR(hipErrorHostMemoryAlreadyRegistered, 712,
                  "part or all of the requested memory range is already mapped"),
    SH_ENUMERATOR(hipErrorHostMemoryNotRegistered, 713,
                  "pointer does not correspond to a registered memory region"),
    SH_ENUMERATOR(hipErrorLaunchFailure, 719, "unspecified launch failure"),
    SH_ENUMERATOR(hipErrorCooperativeLaunchTooLarge, 720, "too many blocks in cooperative launch"),
    SH_ENUMERATOR(hipErrorNotSupported, 801, "operation not supported"),
    SH_ENUMERATOR(hipErrorStreamCaptureUnsupported, 900,
                  "operation not permitted when stream is capturing"),
    SH_ENUMERATOR(hipErrorStreamCaptureInvalidated, 901,
                  "operation failed due to a previous error during capture"),
    SH_ENUMERATOR(hipErrorStreamCaptureMerge, 902,
                  "operation would result in a merge of separate capture sequences"),
    SH_ENUMERATOR(hipErrorStreamCaptureUnmatched, 903,
                  "capture was not ended in the same stream as it began"),
    SH_ENUMERATOR(hipErrorStreamCaptureUnjoined, 904, "capturing stream has unjoined work"),
    SH_ENUMERATOR(hipErrorStreamCaptureIsolation, 905,
                  "dependency created on uncaptured work in another stream"),
    SH_ENUMERATOR(hipErrorStreamCaptureImplicit, 906,
                  "operation would make the legacy stream depend on a capturing blocking stream"),
    SH_ENUMERATOR(hipErrorCapturedEvent, 907,
                  "operation not permitted on an event last recorded in a capturing stream"),
    SH_ENUMERATOR(hipErrorStreamCaptureWrongThread, 908,
                  "attempt to terminate a thread-local capture sequence from another thread"),
    SH_ENUMERATOR(hipErrorGraphExecUpdateFailure, 910,
                  "the graph update was not performed because it included changes which violated "
                  "constraints specific to instantiated graph update"),
    SH_ENUMERATOR(hipErrorUnknown, 999, "unknown error"),
    SH_ENUMERATOR(hipErrorRuntimeMemory, 1052, "runtime memory call returned error"),
    SH_ENUMERATOR(hipErrorRuntimeOther, 1053, "runtime call other than memory returned error"),
    SH_ENUMERATOR(hipErrorTbd, 1054, "unknown error"),
};

// Deprecated spellings and the current enumerator that shares their value.
constexpr Enumerator kDeprecated[] = {
    {hipErrorMemoryAllocation, "hipErrorOutOfMemory", 2, "out of memory"},
    {hipErrorInitializationError, "hipErrorNotInitialized", 3, "initialization error"},
    {hipErrorMapBufferObjectFailed, "hipErrorMapFailed", 205, "mapping of buffer object failed"},
    {hipErrorInvalidResourceHandle, "hipErrorInvalidHandle", 400, "invalid resource handle"},
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
    EXPECT_STREQ(hipGetErrorName(e.value), e.spelling);
    const char* name = nullptr;
    EXPECT_EQ(hipDrvGetErrorName(e.value, &name), hipSuccess) << e.spelling;
    EXPECT_STREQ(name, e.spelling);
  }
}

TEST(ErrorStringsTest, DeprecatedSpellingsGetTheCurrentName) {
  for (const Enumerator& e : kDeprecated) {
    ASSERT_NE(ErrorName(e.value), nullptr) << e.spelling;
    EXPECT_STREQ(ErrorName(e.value), e.spelling);
    EXPECT_STREQ(hipGetErrorName(e.value), e.spelling);
    EXPECT_STREQ(hipGetErrorString(e.value), e.text) << e.spelling;
  }
}

TEST(ErrorStringsTest, EveryEnumeratorHasAmdsDescription) {
  for (const Enumerator& e : kEnumerators) {
    EXPECT_STREQ(hipGetErrorString(e.value), e.text) << e.spelling;
    const char* text = nullptr;
    // hipErrorTbd has no text of its own: AMD's runtime describes it as it
    // describes an unknown code, so hipDrvGetErrorString reports it as one.
    const hipError_t expected = e.value == hipErrorTbd ? hipErrorInvalidValue : hipSuccess;
    EXPECT_EQ(hipDrvGetErrorString(e.value, &text), expected) << e.spelling;
    EXPECT_STREQ(text, e.text) << e.spelling;
  }
}

// The texts programs most often print or compare, spelled out by enumerator
// so a slip in the table above cannot hide them.
TEST(ErrorStringsTest, CommonDescriptionsByEnumerator) {
  EXPECT_STREQ(hipGetErrorString(hipSuccess), "no error");
  EXPECT_STREQ(hipGetErrorString(hipErrorInvalidValue), "invalid argument");
  EXPECT_STREQ(hipGetErrorString(hipErrorOutOfMemory), "out of memory");
  EXPECT_STREQ(hipGetErrorString(hipErrorNotInitialized), "initialization error");
  EXPECT_STREQ(hipGetErrorString(hipErrorDeinitialized), "driver shutting down");
  EXPECT_STREQ(hipGetErrorString(hipErrorInvalidDevice), "invalid device ordinal");
  EXPECT_STREQ(hipGetErrorString(hipErrorInvalidContext), "invalid device context");
  EXPECT_STREQ(hipGetErrorString(hipErrorInvalidHandle), "invalid resource handle");
  EXPECT_STREQ(hipGetErrorString(hipErrorNotFound), "named symbol not found");
  EXPECT_STREQ(hipGetErrorString(hipErrorInvalidImage), "device kernel image is invalid");
  EXPECT_STREQ(hipGetErrorString(hipErrorNotReady), "device not ready");
  EXPECT_STREQ(hipGetErrorString(hipErrorLaunchFailure), "unspecified launch failure");
  EXPECT_STREQ(hipGetErrorString(hipErrorNotSupported), "operation not supported");
  EXPECT_STREQ(hipGetErrorString(hipErrorUnknown), "unknown error");
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

// AMD's runtime answers a number it does not know with fixed texts; the
// driver-style pair stores them too and reports hipErrorInvalidValue.
TEST(ErrorStringsTest, UnknownValuesGetAmdsUnknownAnswers) {
  for (int v : {10, 99, 203, 1000, 1055, kLastRepresentable}) {
    const hipError_t error = static_cast<hipError_t>(v);
    EXPECT_STREQ(hipGetErrorName(error), "hipErrorUnknown") << v;
    EXPECT_STREQ(hipGetErrorString(error), "unknown error") << v;
    const char* text = nullptr;
    EXPECT_EQ(hipDrvGetErrorName(error, &text), hipErrorInvalidValue) << v;
    EXPECT_STREQ(text, "hipErrorUnknown") << v;
    text = nullptr;
    EXPECT_EQ(hipDrvGetErrorString(error, &text), hipErrorInvalidValue) << v;
    EXPECT_STREQ(text, "unknown error") << v;
  }
  EXPECT_EQ(hipDrvGetErrorName(hipSuccess, nullptr), hipErrorInvalidValue);
  EXPECT_EQ(hipDrvGetErrorString(hipSuccess, nullptr), hipErrorInvalidValue);
}

}  // namespace
}  // namespace streamhal::hip
