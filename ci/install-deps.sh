#!/usr/bin/env bash
# Installs every Debian package the build, the tests and lavapipe need.
# Idempotent; the only script that installs anything.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git python3 meson
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  glslang-dev glslang-tools spirv-tools spirv-headers
  libabsl-dev libelf-dev libzstd-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
  ffmpeg
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
