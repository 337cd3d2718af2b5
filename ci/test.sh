#!/usr/bin/env bash
# Sets everything up and runs the whole test suite on lavapipe with the
# Vulkan validation layer on (every test fails on any validation message),
# then the fuzz target and the ThreadSanitizer run.
# Usage: ci/test.sh [preset]   (default: release)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
bash ci/install-deps.sh
bash ci/build.sh "$preset"
export STREAMHAL_VALIDATION=1
ctest --preset "$preset" -j "$(nproc)"
# The kernel-image loader's fuzz target, briefly (libFuzzer under clang).
bash ci/fuzz.sh 30
# Multi-threaded streams and launches under ThreadSanitizer.
bash ci/tsan.sh
