#!/usr/bin/env bash
# Configures and builds with a CMake preset (default: release) into
# build/<preset>. Usage: ci/build.sh [release|debug|asan|tsan]
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$(nproc)"
