#!/usr/bin/env bash
# Builds the kernel-image fuzzer (libs/core/code_object_fuzz.cc) with clang in
# its own build folder and runs it on a seed corpus made from test kernels.
#
#   ci/fuzz.sh [SECONDS]        run for SECONDS (default 30)
#
# Environment: STREAMHAL_FUZZ_BUILD_DIR (default <repo>/build-fuzz),
# CC/CXX (default clang-14/clang++-14, else clang/clang++).
# Exit status is the fuzzer's: non-zero when it found a crash, whose input is
# saved in the build folder as crash-* (replay: streamhal_code_object_fuzz FILE).
set -euo pipefail

seconds="${1:-30}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${STREAMHAL_FUZZ_BUILD_DIR:-${root}/build-fuzz}"

pick() { for c in "$@"; do if command -v "$c" > /dev/null; then echo "$c"; return; fi; done; }
cc="${CC:-$(pick clang-14 clang)}"
cxx="${CXX:-$(pick clang++-14 clang++)}"
if [[ -z "${cxx}" ]]; then
  echo "fuzz.sh: clang is required (libFuzzer)" >&2
  exit 2
fi
glslang="$(pick glslangValidator glslang)"
if [[ -z "${glslang}" ]]; then
  echo "fuzz.sh: glslangValidator is required for the seed corpus" >&2
  exit 2
fi

# Warnings stay warnings here: the flags are tuned for GCC.
cmake -S "${root}" -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="${cc}" -DCMAKE_CXX_COMPILER="${cxx}" \
  -DSTREAMHAL_BUILD_FUZZERS=ON -DSTREAMHAL_BUILD_TESTS=OFF \
  -DSTREAMHAL_BUILD_BENCHMARKS=OFF -DSTREAMHAL_WERROR=OFF > "${build}.configure.log" \
  || { cat "${build}.configure.log" >&2; exit 1; }
ninja -C "${build}" streamhal_code_object_fuzz streamhal_fuzz_pack
fuzzer="${build}/libs/core/streamhal_code_object_fuzz"
pack="${build}/libs/core/streamhal_fuzz_pack"

# Seed corpus: every test kernel in the tree plus two built in here, each as
# GLSL, raw SPIR-V, an ELF code object and a fat binary, one image holding
# all modules, and a HIP wrapper (the fuzzer reads the bytes after a 24-byte
# wrapper as the bundle it points at).
work="${build}/fuzz"
seeds="${work}/seeds"
corpus="${work}/corpus"
rm -rf "${seeds}"
mkdir -p "${seeds}/src" "${corpus}"
cat > "${seeds}/src/seed_scale.comp" <<'GLSL'
#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
STREAMHAL_DECLARE_PTR(float);
layout(push_constant) uniform Params { float_ptr x; float a; uint n; } p;
void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.x.v[i] *= p.a;
}
GLSL
cat > "${seeds}/src/seed_shared.comp" <<'GLSL'
#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_LITERAL_WORKGROUP_SIZE
#include "streamhal/kernel.glsl"
layout(local_size_x = 64) in;
STREAMHAL_DECLARE_PTR(uint);
STREAMHAL_DYNAMIC_SHARED(uint, 4, scratch);
layout(push_constant) uniform Params { uint_ptr out_; } p;
void main() {
  scratch[threadIdx.x % scratch.length()] = threadIdx.x;
  __syncthreads();
  p.out_.v[blockIdx.x * 64 + threadIdx.x] = scratch[0];
}
GLSL
while IFS= read -r -d '' kernel; do
  cp "${kernel}" "${seeds}/src/tree_$(echo "${kernel#"${root}"/}" | tr '/' '_')"
done < <(find "${root}" -name '*.comp' -not -path "${root}/build*" -not -path '*/.git/*' -print0)

spvs=()
for src in "${seeds}"/src/*.comp; do
  name="$(basename "${src}" .comp)"
  if ! "${glslang}" --quiet -V --target-env vulkan1.2 -I"${root}/libs/core/include_glsl" \
      -e "${name}" --source-entrypoint main -o "${seeds}/${name}.spv" "${src}" > /dev/null; then
    echo "fuzz.sh: skipping seed ${src} (does not compile)" >&2
    continue
  fi
  cp "${src}" "${seeds}/${name}.comp"
  "${pack}" --format=elf -o "${seeds}/${name}.elf" "${seeds}/${name}.spv"
  "${pack}" --format=fatbin -o "${seeds}/${name}.fatbin" "${seeds}/${name}.spv"
  spvs+=("${seeds}/${name}.spv")
done
if (( ${#spvs[@]} == 0 )); then
  echo "fuzz.sh: no seed kernel compiled" >&2
  exit 1
fi
"${pack}" --format=elf -o "${seeds}/all.elf" "${spvs[@]}"
"${pack}" --format=fatbin -o "${seeds}/all.fatbin" "${spvs[@]}"
{ printf 'FPIH\x01\x00\x00\x00'; head -c 16 /dev/zero; cat "${seeds}/all.fatbin"; } \
  > "${seeds}/all.hipwrapper"
rm -rf "${seeds}/src"

cat > "${work}/image.dict" <<'DICT'
"__CLANG_OFFLOAD_BUNDLE__"
"\x7fELF"
"FPIH\x01\x00\x00\x00"
"\x03\x02\x23\x07"
".spirv"
".shstrtab"
"hipv4-spirv64-unknown-vulkan1.2"
"host-x86_64-unknown-linux-gnu"
"hipv4-amdgcn-amd-amdhsa--gfx906"
"CCOB"
DICT

echo "fuzz.sh: $(ls "${seeds}" | wc -l) seeds; fuzzing for ${seconds} s"
cd "${build}"
exec "${fuzzer}" "${corpus}" "${seeds}" -dict="${work}/image.dict" \
  -max_total_time="${seconds}" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
  -print_final_stats=1
