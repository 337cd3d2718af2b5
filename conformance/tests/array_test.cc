// Rows: CUDA arrays through both APIs (cuArrayCreate, cuArray3DCreate,
// cuArrayDestroy, cuArray*GetDescriptor, hipArrayCreate, hipMallocArray,
// hipMalloc3DArray, ...) and the copies with an array end (cuMemcpyHtoA,
// AtoH, DtoA, AtoD, AtoA, cuMemcpy2D/3D with CU_MEMORYTYPE_ARRAY,
// hipMemcpy2DToArray, hipMemcpy2DFromArray, hipMemcpyHtoA, ...). Every
// round trip goes host -> array -> device -> host (or through a second
// array) and is checked element by element against the same copies done
// on the host, for several formats, channel counts and shapes, on lavapipe.
#include <cuda.h>
#include <hip/channel_descriptor.h>
#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using ArrayConformance = ContextTest;

// Bytes of one element of a CUarray_format with `channels` channels.
size_t ElementBytes(CUarray_format format, unsigned channels) {
  switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8:
      return channels;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF:
      return 2 * channels;
    default:
      return 4 * channels;
  }
}

std::vector<uint8_t> Patterned(size_t count, uint8_t seed) {
  std::vector<uint8_t> bytes(count);
  for (size_t i = 0; i < count; ++i) bytes[i] = static_cast<uint8_t>((i * 29 + seed) % 253 + 1);
  return bytes;
}

CUarray Create3D(size_t width, size_t height, size_t depth, CUarray_format format,
                 unsigned channels, unsigned flags = 0) {
  CUDA_ARRAY3D_DESCRIPTOR desc = {};
  desc.Width = width;
  desc.Height = height;
  desc.Depth = depth;
  desc.Format = format;
  desc.NumChannels = channels;
  desc.Flags = flags;
  CUarray array = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuArray3DCreate(&array, &desc));
  return array;
}

// A 3-D copy between host memory (rows of `pitch` bytes, `height` rows a
// slice) and an array, either way.
CUDA_MEMCPY3D HostArrayCopy(bool to_array, CUarray array, void* host, size_t pitch, size_t height,
                            size_t x, size_t y, size_t z, size_t width_bytes, size_t rows,
                            size_t slices) {
  CUDA_MEMCPY3D c = {};
  if (to_array) {
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = host;
    c.srcPitch = pitch;
    c.srcHeight = height;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = array;
    c.dstXInBytes = x;
    c.dstY = y;
    c.dstZ = z;
  } else {
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = host;
    c.dstPitch = pitch;
    c.dstHeight = height;
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    c.srcArray = array;
    c.srcXInBytes = x;
    c.srcY = y;
    c.srcZ = z;
  }
  c.WidthInBytes = width_bytes;
  c.Height = rows;
  c.Depth = slices;
  return c;
}

// The array's whole contents, read through a pitched device buffer (array
// -> device with cuMemcpy3D, then device -> host), packed.
std::vector<uint8_t> ReadThroughDevice(CUarray array, size_t row_bytes, size_t rows,
                                       size_t slices) {
  const size_t pitch = row_bytes + 24;  // padding the copy must skip
  CUdeviceptr device = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&device, pitch * rows * slices));
  CUDA_MEMCPY3D c = {};
  c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  c.srcArray = array;
  c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c.dstDevice = device;
  c.dstPitch = pitch;
  c.dstHeight = rows;
  c.WidthInBytes = row_bytes;
  c.Height = rows;
  c.Depth = slices;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy3D(&c));
  const std::vector<uint8_t> padded = CudaDownload<uint8_t>(device, pitch * rows * slices);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
  std::vector<uint8_t> packed(row_bytes * rows * slices);
  for (size_t r = 0; r < rows * slices; ++r) {
    std::memcpy(packed.data() + r * row_bytes, padded.data() + r * pitch, row_bytes);
  }
  return packed;
}

// On the host model of a packed array: writes a box from `src` (rows of
// `pitch` bytes, `height` rows a slice).
void ModelWrite(std::vector<uint8_t>& model, size_t row_bytes, size_t rows, const uint8_t* src,
                size_t pitch, size_t height, size_t x, size_t y, size_t z, size_t width,
                size_t box_rows, size_t box_slices) {
  for (size_t k = 0; k < box_slices; ++k) {
    for (size_t j = 0; j < box_rows; ++j) {
      std::memcpy(model.data() + ((z + k) * rows + y + j) * row_bytes + x,
                  src + (k * height + j) * pitch, width);
    }
  }
}

struct Shape {
  const char* name;
  size_t width, height, depth;
  unsigned flags;
};
struct Format {
  CUarray_format format;
  unsigned channels;
};

// Every shape with several formats: fill the whole array from the host,
// overwrite an interior box, read everything back through device memory
// and straight to the host, and compare with the host model.
TEST_F(ArrayConformance, HostArrayDeviceHostRoundTripsForShapesAndFormats) {
  const Shape shapes[] = {
      {"1-D", 37, 0, 0, 0},
      {"2-D", 19, 11, 0, 0},
      {"3-D", 9, 7, 5, 0},
      {"1-D layered", 23, 0, 4, CUDA_ARRAY3D_LAYERED},
      {"2-D layered", 13, 6, 3, CUDA_ARRAY3D_LAYERED},
      {"cubemap", 8, 8, 6, CUDA_ARRAY3D_CUBEMAP},
      {"surface 2-D", 16, 5, 0, CUDA_ARRAY3D_SURFACE_LDST},
  };
  const Format formats[] = {{CU_AD_FORMAT_UNSIGNED_INT8, 1},
                            {CU_AD_FORMAT_SIGNED_INT16, 2},
                            {CU_AD_FORMAT_HALF, 4},
                            {CU_AD_FORMAT_FLOAT, 1},
                            {CU_AD_FORMAT_UNSIGNED_INT32, 4}};
  for (const Shape& shape : shapes) {
    for (const Format& format : formats) {
      SCOPED_TRACE(testing::Message() << shape.name << " format 0x" << std::hex << format.format
                                      << std::dec << " x" << format.channels);
      const size_t element = ElementBytes(format.format, format.channels);
      const size_t row_bytes = shape.width * element;
      const size_t rows = shape.height == 0 ? 1 : shape.height;
      const size_t slices = shape.depth == 0 ? 1 : shape.depth;
      CUarray array = Create3D(shape.width, shape.height, shape.depth, format.format,
                               format.channels, shape.flags);
      ASSERT_NE(array, nullptr);
      // Whole array from a padded host buffer.
      const size_t pitch = row_bytes + 8;
      std::vector<uint8_t> all = Patterned(pitch * rows * slices, 3);
      CUDA_MEMCPY3D up =
          HostArrayCopy(true, array, all.data(), pitch, rows, 0, 0, 0, row_bytes, rows, slices);
      ASSERT_CU(CUDA_SUCCESS, cuMemcpy3D(&up));
      std::vector<uint8_t> model(row_bytes * rows * slices);
      ModelWrite(model, row_bytes, rows, all.data(), pitch, rows, 0, 0, 0, row_bytes, rows, slices);
      // An interior box at an offset in every dimension the shape has.
      const size_t bx = 1, by = rows > 2 ? 1 : 0, bz = slices > 2 ? 1 : 0;
      const size_t bw = (shape.width - 2) * element, bh = rows > 2 ? rows - 2 : rows;
      const size_t bd = slices > 2 ? slices - 2 : slices;
      std::vector<uint8_t> box = Patterned(bw * bh * bd, 101);
      CUDA_MEMCPY3D part =
          HostArrayCopy(true, array, box.data(), bw, bh, bx * element, by, bz, bw, bh, bd);
      ASSERT_CU(CUDA_SUCCESS, cuMemcpy3D(&part));
      ModelWrite(model, row_bytes, rows, box.data(), bw, bh, bx * element, by, bz, bw, bh, bd);
      EXPECT_EQ(ReadThroughDevice(array, row_bytes, rows, slices), model);
      // Straight back to the host, into a pitched buffer whose padding stays.
      std::vector<uint8_t> back(pitch * rows * slices, 0xee);
      CUDA_MEMCPY3D down =
          HostArrayCopy(false, array, back.data(), pitch, rows, 0, 0, 0, row_bytes, rows, slices);
      ASSERT_CU(CUDA_SUCCESS, cuMemcpy3D(&down));
      for (size_t r = 0; r < rows * slices; ++r) {
        ASSERT_EQ(0, std::memcmp(back.data() + r * pitch, model.data() + r * row_bytes, row_bytes))
            << "row " << r;
        for (size_t b = row_bytes; b < pitch; ++b) ASSERT_EQ(back[r * pitch + b], 0xee);
      }
      EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
    }
  }
}

TEST_F(ArrayConformance, TwoDimensionalCopiesWithArrayEndsInBothApis) {
  // float2 array 12 x 9; CUDA fills it, HIP reads a sub-rectangle and
  // writes another, both checked against the host model.
  constexpr size_t kWidth = 12, kHeight = 9, kElement = 8, kRow = kWidth * kElement;
  CUDA_ARRAY_DESCRIPTOR desc = {kWidth, kHeight, CU_AD_FORMAT_FLOAT, 2};
  CUarray array = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuArrayCreate(&array, &desc));
  std::vector<uint8_t> host = Patterned(kRow * kHeight, 7);
  CUDA_MEMCPY2D up = {};
  up.srcMemoryType = CU_MEMORYTYPE_HOST;
  up.srcHost = host.data();
  up.srcPitch = kRow;
  up.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  up.dstArray = array;
  up.WidthInBytes = kRow;
  up.Height = kHeight;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&up));
  std::vector<uint8_t> model = host;

  // cuMemcpy2DUnaligned and cuMemcpy2DAsync: device -> array sub-region.
  const std::vector<uint8_t> patch = Patterned(3 * kElement * 4, 55);
  CUdeviceptr device = CudaUpload(patch);
  CUDA_MEMCPY2D d2a = {};
  d2a.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  d2a.srcDevice = device;
  d2a.srcPitch = 3 * kElement;
  d2a.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  d2a.dstArray = array;
  d2a.dstXInBytes = 5 * kElement;
  d2a.dstY = 2;
  d2a.WidthInBytes = 3 * kElement;
  d2a.Height = 4;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2DUnaligned(&d2a));
  ModelWrite(model, kRow, kHeight, patch.data(), 3 * kElement, 4, 5 * kElement, 2, 0, 3 * kElement,
             4, 1);
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  d2a.dstXInBytes = 0;
  d2a.dstY = 6;
  d2a.Height = 3;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2DAsync(&d2a, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  ModelWrite(model, kRow, kHeight, patch.data(), 3 * kElement, 3, 0, 6, 0, 3 * kElement, 3, 1);
  EXPECT_EQ(ReadThroughDevice(array, kRow, kHeight, 1), model);

  // HIP: hipMemcpy2DFromArray of a sub-rectangle into a pitched host buffer.
  hipArray_t hip_array = reinterpret_cast<hipArray_t>(array);
  constexpr size_t kPitch = 64;
  std::vector<uint8_t> sub(kPitch * 5, 0xee);
  ASSERT_HIP(hipSuccess, hipMemcpy2DFromArray(sub.data(), kPitch, hip_array, 2 * kElement, 3,
                                              6 * kElement, 5, hipMemcpyDeviceToHost));
  for (size_t j = 0; j < 5; ++j) {
    ASSERT_EQ(0, std::memcmp(sub.data() + j * kPitch, model.data() + (3 + j) * kRow + 2 * kElement,
                             6 * kElement));
    for (size_t b = 6 * kElement; b < kPitch; ++b) ASSERT_EQ(sub[j * kPitch + b], 0xee);
  }
  // hipMemcpy2DToArray from host, hipMemcpyParam2D from device.
  const std::vector<uint8_t> hip_patch = Patterned(2 * kElement * 2, 201);
  ASSERT_HIP(hipSuccess, hipMemcpy2DToArray(hip_array, 10 * kElement, 7, hip_patch.data(),
                                            2 * kElement, 2 * kElement, 2, hipMemcpyHostToDevice));
  ModelWrite(model, kRow, kHeight, hip_patch.data(), 2 * kElement, 2, 10 * kElement, 7, 0,
             2 * kElement, 2, 1);
  hip_Memcpy2D param = {};
  param.srcMemoryType = hipMemoryTypeDevice;
  param.srcDevice = AsHipPointer(device);
  param.srcPitch = 3 * kElement;
  param.dstMemoryType = hipMemoryTypeArray;
  param.dstArray = hip_array;
  param.dstXInBytes = 9 * kElement;
  param.dstY = 0;
  param.WidthInBytes = 3 * kElement;
  param.Height = 2;
  ASSERT_HIP(hipSuccess, hipMemcpyParam2D(&param));
  ModelWrite(model, kRow, kHeight, patch.data(), 3 * kElement, 2, 9 * kElement, 0, 0, 3 * kElement,
             2, 1);
  std::vector<uint8_t> whole(kRow * kHeight);
  ASSERT_HIP(hipSuccess, hipMemcpy2DFromArray(whole.data(), kRow, hip_array, 0, 0, kRow, kHeight,
                                              hipMemcpyDeviceToHost));
  EXPECT_EQ(whole, model);

  // hipMemcpy2DArrayToArray and cuMemcpy2D array -> array.
  hipArray_t copy = nullptr;
  hipChannelFormatDesc channels = hipCreateChannelDesc(32, 32, 0, 0, hipChannelFormatKindFloat);
  ASSERT_HIP(hipSuccess, hipMallocArray(&copy, &channels, kWidth, kHeight, 0));
  ASSERT_HIP(hipSuccess, hipMemcpy2DArrayToArray(copy, 0, 0, hip_array, 0, 0, kRow, kHeight,
                                                 hipMemcpyDeviceToDevice));
  EXPECT_EQ(ReadThroughDevice(reinterpret_cast<CUarray>(copy), kRow, kHeight, 1), model);
  CUDA_MEMCPY2D a2a = {};
  a2a.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  a2a.srcArray = array;
  a2a.srcXInBytes = 0;
  a2a.srcY = 0;
  a2a.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  a2a.dstArray = reinterpret_cast<CUarray>(copy);
  a2a.dstXInBytes = 4 * kElement;
  a2a.dstY = 5;
  a2a.WidthInBytes = 8 * kElement;
  a2a.Height = 4;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&a2a));
  std::vector<uint8_t> copied = model;
  for (size_t j = 0; j < 4; ++j) {
    std::memcpy(copied.data() + (5 + j) * kRow + 4 * kElement, model.data() + j * kRow,
                8 * kElement);
  }
  EXPECT_EQ(ReadThroughDevice(reinterpret_cast<CUarray>(copy), kRow, kHeight, 1), copied);
  EXPECT_HIP(hipSuccess, hipFreeArray(copy));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

TEST_F(ArrayConformance, OneDimensionalCopiesInBothApis) {
  // A 1-D array of 64 ushort2 (256 bytes).
  constexpr size_t kBytes = 256;
  CUDA_ARRAY_DESCRIPTOR desc = {64, 0, CU_AD_FORMAT_UNSIGNED_INT16, 2};
  CUarray array = nullptr, other = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuArrayCreate(&array, &desc));
  ASSERT_CU(CUDA_SUCCESS, cuArrayCreate(&other, &desc));
  std::vector<uint8_t> model = Patterned(kBytes, 9);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoA(array, 0, model.data(), kBytes));
  // HtoA at an offset, then AtoH of a sub-range.
  const std::vector<uint8_t> piece = Patterned(40, 77);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoA(array, 24, piece.data(), piece.size()));
  std::memcpy(model.data() + 24, piece.data(), piece.size());
  std::vector<uint8_t> part(100);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoH(part.data(), array, 12, part.size()));
  EXPECT_EQ(part, std::vector<uint8_t>(model.begin() + 12, model.begin() + 112));
  // DtoA, AtoD, AtoA.
  const std::vector<uint8_t> device_bytes = Patterned(64, 150);
  CUdeviceptr device = CudaUpload(device_bytes);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoA(array, 128, device + 16, 48));
  std::memcpy(model.data() + 128, device_bytes.data() + 16, 48);
  CUdeviceptr out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&out, kBytes));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoD(out, array, 0, kBytes));
  EXPECT_EQ(CudaDownload<uint8_t>(out, kBytes), model);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoA(other, 0, std::vector<uint8_t>(kBytes, 0).data(), kBytes));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoA(other, 8, array, 100, 120));
  std::vector<uint8_t> other_model(kBytes, 0);
  std::memcpy(other_model.data() + 8, model.data() + 100, 120);
  std::vector<uint8_t> got(kBytes);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoH(got.data(), other, 0, kBytes));
  EXPECT_EQ(got, other_model);
  // Async forms with page-locked host memory, in stream order.
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  void* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&pinned, kBytes));
  std::memset(pinned, 0x5a, kBytes);
  ASSERT_CU(CUDA_SUCCESS,
            cuMemcpyHtoAAsync(array, 60, static_cast<uint8_t*>(pinned) + 4, 32, stream));
  std::memset(model.data() + 60, 0x5a, 32);
  std::vector<uint8_t> async_back(kBytes);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoHAsync(pinned, array, 0, kBytes, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  std::memcpy(async_back.data(), pinned, kBytes);
  EXPECT_EQ(async_back, model);
  // Pageable memory with the async forms: complete on return.
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoAAsync(array, 0, piece.data(), 8, stream));
  std::memcpy(model.data(), piece.data(), 8);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoHAsync(async_back.data(), array, 0, kBytes, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(async_back, model);

  // HIP: HtoA/AtoH, their async forms and hipMemcpyToArray/FromArray.
  hipArray_t hip_array = reinterpret_cast<hipArray_t>(array);
  ASSERT_HIP(hipSuccess, hipMemcpyHtoA(hip_array, 200, piece.data(), 40));
  std::memcpy(model.data() + 200, piece.data(), 40);
  std::vector<uint8_t> hip_back(kBytes);
  ASSERT_HIP(hipSuccess, hipMemcpyAtoH(hip_back.data(), hip_array, 0, kBytes));
  EXPECT_EQ(hip_back, model);
  ASSERT_HIP(hipSuccess,
             hipMemcpyToArray(hip_array, 4, 0, AsHipPointer(device), 16, hipMemcpyDeviceToDevice));
  std::memcpy(model.data() + 4, device_bytes.data(), 16);
  ASSERT_HIP(hipSuccess, hipMemcpyHtoAAsync(hip_array, 240, piece.data(), 16,
                                            reinterpret_cast<hipStream_t>(stream)));
  std::memcpy(model.data() + 240, piece.data(), 16);
  ASSERT_HIP(hipSuccess, hipMemcpyAtoHAsync(hip_back.data(), hip_array, 0, kBytes,
                                            reinterpret_cast<hipStream_t>(stream)));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(reinterpret_cast<hipStream_t>(stream)));
  EXPECT_EQ(hip_back, model);
  std::vector<uint8_t> from(64);
  ASSERT_HIP(hipSuccess, hipMemcpyFromArray(from.data(), hip_array, 180, 0, from.size(),
                                            hipMemcpyDeviceToHost));
  EXPECT_EQ(from, std::vector<uint8_t>(model.begin() + 180, model.begin() + 244));

  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(out));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(other));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

// hipMemcpyDtoA, hipMemcpyAtoD, hipMemcpyAtoA: the same copies as CUDA's
// twins, byte for byte, and the same refusals.
TEST_F(ArrayConformance, HipArrayToDeviceAndArrayToArrayCopies) {
  constexpr size_t kBytes = 256;  // 64 elements of float
  hipChannelFormatDesc format = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
  hipArray_t array = nullptr, other = nullptr;
  ASSERT_HIP(hipSuccess, hipMallocArray(&array, &format, 64, 0, hipArrayDefault));
  ASSERT_HIP(hipSuccess, hipMallocArray(&other, &format, 64, 0, hipArrayDefault));
  std::vector<uint8_t> model = Patterned(kBytes, 21);
  ASSERT_HIP(hipSuccess, hipMemcpyHtoA(array, 0, model.data(), kBytes));
  void* device = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&device, kBytes));
  const std::vector<uint8_t> device_bytes = Patterned(kBytes, 200);
  ASSERT_HIP(hipSuccess, hipMemcpy(device, device_bytes.data(), kBytes, hipMemcpyHostToDevice));
  // Device -> array at an offset, array -> device whole.
  ASSERT_HIP(hipSuccess, hipMemcpyDtoA(array, 64, static_cast<uint8_t*>(device) + 32, 96));
  std::memcpy(model.data() + 64, device_bytes.data() + 32, 96);
  void* out = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&out, kBytes));
  ASSERT_HIP(hipSuccess, hipMemcpyAtoD(out, array, 0, kBytes));
  std::vector<uint8_t> back(kBytes);
  ASSERT_HIP(hipSuccess, hipMemcpy(back.data(), out, kBytes, hipMemcpyDeviceToHost));
  EXPECT_EQ(back, model);
  ASSERT_HIP(hipSuccess, hipMemcpyAtoD(out, array, 128, 16));
  ASSERT_HIP(hipSuccess, hipMemcpy(back.data(), out, 16, hipMemcpyDeviceToHost));
  EXPECT_EQ(std::vector<uint8_t>(back.begin(), back.begin() + 16),
            std::vector<uint8_t>(model.begin() + 128, model.begin() + 144));
  // Array -> array between offsets.
  ASSERT_HIP(hipSuccess, hipMemcpyHtoA(other, 0, std::vector<uint8_t>(kBytes, 0).data(), kBytes));
  ASSERT_HIP(hipSuccess, hipMemcpyAtoA(other, 8, array, 100, 120));
  std::vector<uint8_t> other_model(kBytes, 0);
  std::memcpy(other_model.data() + 8, model.data() + 100, 120);
  ASSERT_HIP(hipSuccess, hipMemcpyAtoH(back.data(), other, 0, kBytes));
  EXPECT_EQ(back, other_model);

  // Refusals, as CUDA's: past the end, off an element, not an array, a
  // device end outside any allocation.
  CUarray cu_array = reinterpret_cast<CUarray>(array);
  CUarray cu_other = reinterpret_cast<CUarray>(other);
  const CUdeviceptr cu_device = reinterpret_cast<CUdeviceptr>(device);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoA(cu_array, 240, cu_device, 32),
              hipMemcpyDtoA(array, 240, device, 32));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoD(cu_device, cu_array, 2, 8),
              hipMemcpyAtoD(device, array, 2, 8));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoA(cu_other, 200, cu_array, 0, 64),
              hipMemcpyAtoA(other, 200, array, 0, 64));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoA(nullptr, 0, cu_array, 0, 4),
              hipMemcpyAtoA(nullptr, 0, array, 0, 4));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoA(cu_array, 0, 0x10, 16),
              hipMemcpyDtoA(array, 0, reinterpret_cast<void*>(0x10), 16));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoD(0x10, cu_array, 0, 16),
              hipMemcpyAtoD(reinterpret_cast<void*>(0x10), array, 0, 16));
  // Nothing changed.
  ASSERT_HIP(hipSuccess, hipMemcpyAtoH(back.data(), array, 0, kBytes));
  EXPECT_EQ(back, model);
  ASSERT_HIP(hipSuccess, hipMemcpyAtoH(back.data(), other, 0, kBytes));
  EXPECT_EQ(back, other_model);
  EXPECT_HIP(hipSuccess, hipFree(out));
  EXPECT_HIP(hipSuccess, hipFree(device));
  EXPECT_HIP(hipSuccess, hipFreeArray(other));
  EXPECT_HIP(hipSuccess, hipFreeArray(array));
}

// hipGetChannelDesc reads back the format an array was made with.
TEST_F(ArrayConformance, HipGetChannelDescReportsTheArrayFormat) {
  const hipChannelFormatDesc formats[] = {
      hipCreateChannelDesc(8, 0, 0, 0, hipChannelFormatKindUnsigned),
      hipCreateChannelDesc(16, 16, 0, 0, hipChannelFormatKindSigned),
      hipCreateChannelDesc(32, 32, 32, 32, hipChannelFormatKindFloat),
      hipCreateChannelDesc(16, 0, 0, 0, hipChannelFormatKindFloat),
  };
  for (const hipChannelFormatDesc& format : formats) {
    hipArray_t array = nullptr;
    ASSERT_HIP(hipSuccess, hipMallocArray(&array, &format, 8, 4, hipArrayDefault));
    hipChannelFormatDesc got = {};
    ASSERT_HIP(hipSuccess, hipGetChannelDesc(&got, array));
    EXPECT_EQ(got.x, format.x);
    EXPECT_EQ(got.y, format.y);
    EXPECT_EQ(got.z, format.z);
    EXPECT_EQ(got.w, format.w);
    EXPECT_EQ(got.f, format.f);
    EXPECT_HIP(hipErrorInvalidValue, hipGetChannelDesc(nullptr, array));
    ASSERT_HIP(hipSuccess, hipFreeArray(array));
    // A destroyed array is an invalid handle.
    EXPECT_HIP(hipErrorInvalidHandle, hipGetChannelDesc(&got, array));
  }
  // AMD: a null array is an invalid value.
  hipChannelFormatDesc got = {};
  EXPECT_HIP(hipErrorInvalidValue, hipGetChannelDesc(&got, nullptr));
}

TEST_F(ArrayConformance, ThreeDimensionalAndLayeredCopiesInBothApis) {
  // A 3-D int32 array and a 2-D layered uchar4 array through hipMemcpy3D,
  // hipDrvMemcpy3D and cuMemcpy3DAsync, device and unaligned ends included.
  constexpr size_t kW = 6, kH = 5, kD = 4, kElement = 4, kRow = kW * kElement;
  hipArray_t volume = nullptr;
  hipChannelFormatDesc int1 = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindSigned);
  ASSERT_HIP(hipSuccess, hipMalloc3DArray(&volume, &int1, make_hipExtent(kW, kH, kD), 0));
  std::vector<uint8_t> host = Patterned(kRow * kH * kD, 31);
  hipMemcpy3DParms up = {};
  up.srcPtr = make_hipPitchedPtr(host.data(), kRow, kW, kH);
  up.dstArray = volume;
  up.extent = make_hipExtent(kW, kH, kD);  // elements wide: an array end
  up.kind = hipMemcpyHostToDevice;
  ASSERT_HIP(hipSuccess, hipMemcpy3D(&up));
  std::vector<uint8_t> model = host;
  // A box at (1, 2, 1) of 4 x 3 x 2 elements from a device buffer whose
  // pitch is no multiple of the element size (staged by the runtime).
  constexpr size_t kOddPitch = 4 * kElement + 2;
  const std::vector<uint8_t> box = Patterned(kOddPitch * 3 * 2, 90);
  CUdeviceptr device = CudaUpload(box);
  HIP_MEMCPY3D drv = {};
  drv.srcMemoryType = hipMemoryTypeDevice;
  drv.srcDevice = AsHipPointer(device);
  drv.srcPitch = kOddPitch;
  drv.srcHeight = 3;
  drv.dstMemoryType = hipMemoryTypeArray;
  drv.dstArray = volume;
  drv.dstXInBytes = 1 * kElement;
  drv.dstY = 2;
  drv.dstZ = 1;
  drv.WidthInBytes = 4 * kElement;
  drv.Height = 3;
  drv.Depth = 2;
  ASSERT_HIP(hipSuccess, hipDrvMemcpy3D(&drv));
  ModelWrite(model, kRow, kH, box.data(), kOddPitch, 3, kElement, 2, 1, 4 * kElement, 3, 2);
  EXPECT_EQ(ReadThroughDevice(reinterpret_cast<CUarray>(volume), kRow, kH, kD), model);
  // Back out with hipMemcpy3D (array -> host box).
  std::vector<uint8_t> out(2 * kElement * 2 * 3);
  hipMemcpy3DParms down = {};
  down.srcArray = volume;
  down.srcPos = make_hipPos(3, 1, 1);  // elements
  down.dstPtr = make_hipPitchedPtr(out.data(), 2 * kElement, 2, 2);
  down.extent = make_hipExtent(2, 2, 3);
  down.kind = hipMemcpyDeviceToHost;
  ASSERT_HIP(hipSuccess, hipMemcpy3D(&down));
  std::vector<uint8_t> expected;
  for (size_t z = 1; z < 4; ++z) {
    for (size_t y = 1; y < 3; ++y) {
      const uint8_t* row = model.data() + (z * kH + y) * kRow + 3 * kElement;
      expected.insert(expected.end(), row, row + 2 * kElement);
    }
  }
  EXPECT_EQ(out, expected);

  // Layers: 3 layers of 7 x 4 uchar4; cuMemcpy3DAsync writes layer 1..2 of
  // a sub-box from pinned memory.
  CUarray layers = Create3D(7, 4, 3, CU_AD_FORMAT_UNSIGNED_INT8, 4, CUDA_ARRAY3D_LAYERED);
  ASSERT_NE(layers, nullptr);
  std::vector<uint8_t> zero(7 * 4 * 4 * 3, 0);
  CUDA_MEMCPY3D clear = HostArrayCopy(true, layers, zero.data(), 28, 4, 0, 0, 0, 28, 4, 3);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy3D(&clear));
  void* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&pinned, 12 * 2 * 2));
  const std::vector<uint8_t> layer_box = Patterned(12 * 2 * 2, 17);
  std::memcpy(pinned, layer_box.data(), layer_box.size());
  CUDA_MEMCPY3D async = HostArrayCopy(true, layers, pinned, 12, 2, 2 * 4, 1, 1, 12, 2, 2);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy3DAsync(&async, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  ModelWrite(zero, 28, 4, layer_box.data(), 12, 2, 8, 1, 1, 12, 2, 2);
  EXPECT_EQ(ReadThroughDevice(layers, 28, 4, 3), zero);
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(layers));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
  EXPECT_HIP(hipSuccess, hipFreeArray(volume));
}

TEST_F(ArrayConformance, DescriptorsReportWhatWasCreated) {
  CUDA_ARRAY_DESCRIPTOR two_d = {33, 17, CU_AD_FORMAT_HALF, 2};
  CUarray array = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuArrayCreate(&array, &two_d));
  CUDA_ARRAY_DESCRIPTOR got = {};
  ASSERT_CU(CUDA_SUCCESS, cuArrayGetDescriptor(&got, array));
  EXPECT_EQ(got.Width, 33u);
  EXPECT_EQ(got.Height, 17u);
  EXPECT_EQ(got.Format, CU_AD_FORMAT_HALF);
  EXPECT_EQ(got.NumChannels, 2u);
  CUDA_ARRAY3D_DESCRIPTOR got3 = {};
  ASSERT_CU(CUDA_SUCCESS, cuArray3DGetDescriptor(&got3, array));
  EXPECT_EQ(got3.Depth, 0u);
  EXPECT_EQ(got3.Flags, 0u);
  CUarray cube = Create3D(16, 16, 12, CU_AD_FORMAT_FLOAT, 4,
                          CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST);
  ASSERT_NE(cube, nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuArray3DGetDescriptor(&got3, cube));
  EXPECT_EQ(got3.Width, 16u);
  EXPECT_EQ(got3.Height, 16u);
  EXPECT_EQ(got3.Depth, 12u);
  EXPECT_EQ(got3.Format, CU_AD_FORMAT_FLOAT);
  EXPECT_EQ(got3.NumChannels, 4u);
  EXPECT_EQ(got3.Flags,
            unsigned{CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST});
  CUarray gather = Create3D(8, 8, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, CUDA_ARRAY3D_TEXTURE_GATHER);
  EXPECT_NE(gather, nullptr);

  // HIP: the same objects, and HIP's own constructors.
  HIP_ARRAY_DESCRIPTOR hip_got = {};
  ASSERT_HIP(hipSuccess, hipArrayGetDescriptor(&hip_got, reinterpret_cast<hipArray_t>(array)));
  EXPECT_EQ(hip_got.Width, 33u);
  EXPECT_EQ(hip_got.Format, HIP_AD_FORMAT_HALF);
  HIP_ARRAY_DESCRIPTOR hip_desc = {5, 0, HIP_AD_FORMAT_SIGNED_INT8, 1};
  hipArray_t hip_array = nullptr;
  ASSERT_HIP(hipSuccess, hipArrayCreate(&hip_array, &hip_desc));
  HIP_ARRAY3D_DESCRIPTOR hip3 = {};
  ASSERT_HIP(hipSuccess, hipArray3DGetDescriptor(&hip3, hip_array));
  EXPECT_EQ(hip3.Width, 5u);
  EXPECT_EQ(hip3.Height, 0u);
  EXPECT_EQ(hip3.Format, HIP_AD_FORMAT_SIGNED_INT8);
  HIP_ARRAY3D_DESCRIPTOR hip3_desc = {4, 4, 2, HIP_AD_FORMAT_UNSIGNED_INT16, 4, hipArrayLayered};
  hipArray_t hip_layers = nullptr;
  ASSERT_HIP(hipSuccess, hipArray3DCreate(&hip_layers, &hip3_desc));
  hipChannelFormatDesc channels = {};
  hipExtent extent = {};
  unsigned flags = 99;
  ASSERT_HIP(hipSuccess, hipArrayGetInfo(&channels, &extent, &flags, hip_layers));
  EXPECT_EQ(channels.x, 16);
  EXPECT_EQ(channels.y, 16);
  EXPECT_EQ(channels.z, 16);
  EXPECT_EQ(channels.w, 16);
  EXPECT_EQ(channels.f, hipChannelFormatKindUnsigned);
  EXPECT_EQ(extent.width, 4u);
  EXPECT_EQ(extent.depth, 2u);
  EXPECT_EQ(flags, unsigned{hipArrayLayered});
  hipArray_t malloced = nullptr;
  hipChannelFormatDesc float1 = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
  ASSERT_HIP(hipSuccess, hipMallocArray(&malloced, &float1, 10, 3, hipArraySurfaceLoadStore));
  ASSERT_HIP(hipSuccess, hipArray3DGetDescriptor(&hip3, malloced));
  EXPECT_EQ(hip3.Format, HIP_AD_FORMAT_FLOAT);
  EXPECT_EQ(hip3.NumChannels, 1u);
  EXPECT_EQ(hip3.Flags, unsigned{hipArraySurfaceLoadStore});

  EXPECT_HIP(hipSuccess, hipFreeArray(malloced));
  EXPECT_HIP(hipSuccess, hipArrayDestroy(hip_layers));
  EXPECT_HIP(hipSuccess, hipArrayDestroy(hip_array));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(gather));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(cube));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

TEST_F(ArrayConformance, BadDescriptorsAreInvalidValueAndAllocateNothing) {
  size_t free_before = 0, total = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetInfo(&free_before, &total));
  struct Bad {
    const char* why;
    CUDA_ARRAY3D_DESCRIPTOR desc;
  };
  const Bad bad[] = {
      {"zero width", {0, 4, 0, CU_AD_FORMAT_FLOAT, 1, 0}},
      {"3 channels", {4, 4, 0, CU_AD_FORMAT_FLOAT, 3, 0}},
      {"0 channels", {4, 4, 0, CU_AD_FORMAT_FLOAT, 0, 0}},
      {"8 channels", {4, 4, 0, CU_AD_FORMAT_FLOAT, 8, 0}},
      {"unknown format", {4, 4, 0, static_cast<CUarray_format>(0x04), 1, 0}},
      {"NV12", {4, 4, 0, CU_AD_FORMAT_NV12, 1, 0}},
      {"oversized 1-D", {size_t{1} << 30, 0, 0, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0}},
      {"oversized 2-D", {size_t{1} << 20, size_t{1} << 20, 0, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0}},
      {"oversized 3-D", {1 << 16, 1 << 16, 1 << 16, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0}},
      {"past 32 bits", {size_t{1} << 33, 1, 0, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0}},
      {"height 0, depth 3", {4, 0, 3, CU_AD_FORMAT_FLOAT, 1, 0}},
      {"layered, no layers", {4, 4, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED}},
      {"cubemap not square", {8, 4, 6, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP}},
      {"cubemap of 5 faces", {8, 8, 5, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP}},
      {"gather on 3-D", {4, 4, 4, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_TEXTURE_GATHER}},
      {"sparse", {4, 4, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SPARSE}},
      {"unknown flag", {4, 4, 0, CU_AD_FORMAT_FLOAT, 1, 0x1000}},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.why);
    CUarray array = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArray3DCreate(&array, &b.desc));
    EXPECT_EQ(array, nullptr);
    HIP_ARRAY3D_DESCRIPTOR h = {b.desc.Width,       b.desc.Height,
                                b.desc.Depth,       static_cast<hipArray_Format>(b.desc.Format),
                                b.desc.NumChannels, b.desc.Flags};
    hipArray_t hip_array = nullptr;
    EXPECT_HIP(hipErrorInvalidValue, hipArray3DCreate(&hip_array, &h));
    EXPECT_EQ(hip_array, nullptr);
  }
  CUDA_ARRAY_DESCRIPTOR two_d = {4, 4, CU_AD_FORMAT_FLOAT, 3};
  HIP_ARRAY_DESCRIPTOR hip_two_d = {4, 4, HIP_AD_FORMAT_FLOAT, 3};
  CUarray array = nullptr;
  hipArray_t hip_array = nullptr;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(&array, &two_d),
              hipArrayCreate(&hip_array, &hip_two_d));
  two_d.NumChannels = 1;
  hip_two_d.NumChannels = 1;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(nullptr, &two_d),
              hipArrayCreate(nullptr, &hip_two_d));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(&array, nullptr),
              hipArrayCreate(&hip_array, nullptr));
  // hipMallocArray: a 3-channel or mixed-width channel descriptor.
  hipChannelFormatDesc three = hipCreateChannelDesc(8, 8, 8, 0, hipChannelFormatKindUnsigned);
  EXPECT_HIP(hipErrorInvalidValue, hipMallocArray(&hip_array, &three, 4, 4, 0));
  hipChannelFormatDesc mixed = hipCreateChannelDesc(8, 16, 0, 0, hipChannelFormatKindUnsigned);
  EXPECT_HIP(hipErrorInvalidValue, hipMallocArray(&hip_array, &mixed, 4, 4, 0));
  hipChannelFormatDesc float8 = hipCreateChannelDesc(8, 0, 0, 0, hipChannelFormatKindFloat);
  EXPECT_HIP(hipErrorInvalidValue,
             hipMalloc3DArray(&hip_array, &float8, make_hipExtent(4, 4, 4), 0));
  EXPECT_HIP(hipErrorInvalidValue, hipMallocArray(&hip_array, nullptr, 4, 4, 0));
  size_t free_after = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetInfo(&free_after, &total));
  EXPECT_EQ(free_after, free_before);
}

TEST_F(ArrayConformance, ArrayMemoryCountsAsDeviceMemory) {
  size_t free_before = 0, total = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetInfo(&free_before, &total));
  // 2048 x 2048 float4: 64 MiB.
  CUarray array = Create3D(2048, 2048, 0, CU_AD_FORMAT_FLOAT, 4);
  ASSERT_NE(array, nullptr);
  size_t free_during = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetInfo(&free_during, &total));
  EXPECT_LE(free_during + (size_t{64} << 20), free_before);
  ASSERT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
  size_t free_after = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetInfo(&free_after, &total));
  EXPECT_GE(free_after + (size_t{64} << 20), free_before);
  EXPECT_GT(free_after, free_during);
}

TEST_F(ArrayConformance, BadCopiesAreInvalidValueAndChangeNothing) {
  CUDA_ARRAY_DESCRIPTOR desc = {16, 4, CU_AD_FORMAT_UNSIGNED_INT32, 1};
  CUarray array = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuArrayCreate(&array, &desc));
  const std::vector<uint8_t> model = Patterned(64 * 4, 5);
  CUDA_MEMCPY2D up = {};
  up.srcMemoryType = CU_MEMORYTYPE_HOST;
  up.srcHost = model.data();
  up.srcPitch = 64;
  up.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  up.dstArray = array;
  up.WidthInBytes = 64;
  up.Height = 4;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&up));
  hipArray_t hip_array = reinterpret_cast<hipArray_t>(array);
  std::vector<uint8_t> junk(1024, 0x77);
  // Out of range: past the row, past the last row, x not on an element,
  // width not a whole number of elements.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(array, 60, junk.data(), 8),
              hipMemcpyHtoA(hip_array, 60, junk.data(), 8));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(array, 2, junk.data(), 4),
              hipMemcpyHtoA(hip_array, 2, junk.data(), 4));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoH(junk.data(), array, 0, 6),
              hipMemcpyAtoH(junk.data(), hip_array, 0, 6));
  CUDA_MEMCPY2D past = up;
  past.dstY = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&past));
  EXPECT_HIP(hipErrorInvalidValue,
             hipMemcpy2DToArray(hip_array, 0, 1, junk.data(), 64, 64, 4, hipMemcpyHostToDevice));
  EXPECT_HIP(hipErrorInvalidValue,
             hipMemcpy2DToArray(hip_array, 8, 0, junk.data(), 64, 64, 1, hipMemcpyHostToDevice));
  CUDA_MEMCPY3D deep = HostArrayCopy(true, array, junk.data(), 64, 4, 0, 0, 1, 64, 4, 1);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&deep));
  // A device end outside any allocation; a null host end.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoA(array, 0, 0x10, 16));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(array, 0, nullptr, 16));
  // Arrays that are not: null and foreign handles.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(nullptr, 0, junk.data(), 4),
              hipMemcpyHtoA(nullptr, 0, junk.data(), 4));
  CUDA_MEMCPY2D null_array = up;
  null_array.dstArray = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&null_array));
  // Nothing changed.
  std::vector<uint8_t> back(64 * 4);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoH(back.data(), array, 0, 64));
  ASSERT_HIP(hipSuccess,
             hipMemcpy2DFromArray(back.data(), 64, hip_array, 0, 0, 64, 4, hipMemcpyDeviceToHost));
  EXPECT_EQ(back, model);
  // Destroyed: copies are invalid values, the array calls invalid handles.
  ASSERT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(array, 0, junk.data(), 4),
              hipMemcpyHtoA(hip_array, 0, junk.data(), 4));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&up));
  CUDA_ARRAY_DESCRIPTOR got = {};
  HIP_ARRAY_DESCRIPTOR hip_got = {};
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuArrayGetDescriptor(&got, array),
              hipArrayGetDescriptor(&hip_got, hip_array));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuArrayDestroy(array), hipArrayDestroy(hip_array));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuArrayDestroy(nullptr), hipFreeArray(nullptr));
  CUarray live = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuArrayCreate(&live, &desc));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuArrayGetDescriptor(nullptr, live),
              hipArrayGetDescriptor(nullptr, reinterpret_cast<hipArray_t>(live)));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(live));
}

// Rows cuMemcpy2D/3D (+Async) stay partial: a stream capture cannot hold a
// copy with an array end yet (no graph memcpy node with arrays).
TEST_F(ArrayConformance, CapturedArrayCopiesAreNotSupported) {
  ProvesLimitation();
  CUDA_ARRAY_DESCRIPTOR desc = {16, 0, CU_AD_FORMAT_UNSIGNED_INT8, 1};
  CUarray array = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuArrayCreate(&array, &desc));
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 16));
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_RELAXED));
  CUDA_MEMCPY3D c = {};
  c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  c.srcDevice = device;
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = array;
  c.WidthInBytes = 16;
  c.Height = 1;
  c.Depth = 1;
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemcpy3DAsync(&c, stream));
  CUgraph graph = nullptr;
  cuStreamEndCapture(stream, &graph);
  if (graph != nullptr) {
    EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
  }
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

}  // namespace
}  // namespace streamhal::conformance
