#!/usr/bin/env python3
"""Frames per second of scale_cuda on the drop-in library vs the CPU scale.

Scales 1920x1080 testsrc2 frames to 1280x720 (bicubic, both filters'
default) with ffmpeg's CPU `scale` and with `hwupload,scale_cuda,hwdownload`
on streamhal's drop-in libcuda.so.1. Each is timed for two frame counts and
the rate is taken from the difference, so start-up (the scaler module's
load, the device's creation) is left out. Prints both rates and their
ratio; asserts nothing (issue 19 asks for the figure, not a threshold).

Usage: scale_fps.py --dropin DIR [--ffmpeg PATH] [--frames N]
"""

import argparse
import os
import subprocess
import sys
import time

SOURCE = ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25"]


def seconds(ffmpeg, frames, chain, env):
    cmd = [ffmpeg, "-hide_banner", "-nostdin", "-loglevel", "error", "-y"]
    if env is not None:
        cmd += ["-init_hw_device", "cuda=cu:0", "-filter_hw_device", "cu"]
    cmd += SOURCE + ["-frames:v", str(frames), "-vf", chain, "-f", "null", "-"]
    start = time.monotonic()
    subprocess.run(cmd, env=env, check=True)
    return time.monotonic() - start


def rate(ffmpeg, frames, chain, env):
    few = min(seconds(ffmpeg, 5, chain, env) for _ in range(2))
    many = min(seconds(ffmpeg, 5 + frames, chain, env) for _ in range(2))
    return frames / max(many - few, 1e-9)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dropin", required=True, help="folder holding the drop-in libcuda.so.1")
    parser.add_argument("--ffmpeg", default="/usr/bin/ffmpeg")
    parser.add_argument("--frames", type=int, default=50)
    args = parser.parse_args()
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = args.dropin
    env.pop("STREAMHAL_VALIDATION", None)
    cpu = rate(args.ffmpeg, args.frames, "format=yuv420p,scale=1280:720", None)
    gpu = rate(args.ffmpeg, args.frames,
               "format=yuv420p,hwupload,scale_cuda=1280:720,hwdownload,format=yuv420p", env)
    print(f"CPU scale:                    {cpu:7.1f} frames/s")
    print(f"scale_cuda (upload/download): {gpu:7.1f} frames/s")
    print(f"ratio scale_cuda / CPU:       {gpu / cpu:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
