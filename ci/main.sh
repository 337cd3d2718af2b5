#!/usr/bin/env bash
# Sets everything up and runs the main job on lavapipe: the conformance
# report (which API functions work on this device).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
bash ci/build.sh release
./build/release/apps/streamhal-info/streamhal-info
./build/release/apps/streamhal-conformance/streamhal-conformance --format=markdown "$@"
