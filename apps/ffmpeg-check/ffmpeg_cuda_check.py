#!/usr/bin/env python3
"""Runs the stock ffmpeg's CUDA filters on streamhal's drop-in libcuda.so.1.

ffmpeg (Debian's package, built by someone else) loads libcuda.so.1 with
dlopen; LD_LIBRARY_PATH points it at the drop-in library, which runs its
kernels (clang's PTX, embedded in libavfilter) on the Vulkan device. Each
check compares the output with ffmpeg's own CPU filters on the same input:

  hwupload  format=nv12,hwupload,hwdownload must return the input bit for bit
  scale_ALGO  scale_cuda=W:H:interp_algo=ALGO vs scale=W:H:flags=ALGO (nearest:
              neighbor) for nearest, bilinear, bicubic and lanczos, PSNR at least
              --min-psnr dB

Any Vulkan validation message (STREAMHAL_VALIDATION=1 prints them with a
"validation:" prefix) fails the check.

Usage: ffmpeg_cuda_check.py --dropin DIR [--ffmpeg PATH] [--checks a,b] [--work DIR]
Prints PASSED at the end when every check passed; exits 1 otherwise.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

WIDTH, HEIGHT, FRAMES = 640, 360, 3
SOURCE = ["-f", "lavfi", "-i", f"testsrc2=size={WIDTH}x{HEIGHT}:rate=25"]


def run(ffmpeg, args, env=None):
    cmd = [ffmpeg, "-hide_banner", "-nostdin", "-loglevel", "error", "-y"] + args
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=900)
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{output}")
    if "validation:" in output:
        raise RuntimeError(f"{' '.join(cmd)} reported Vulkan validation messages:\n{output}")
    return output


def gpu_env(dropin):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = dropin + (":" + env["LD_LIBRARY_PATH"]
                                       if env.get("LD_LIBRARY_PATH") else "")
    env["STREAMHAL_VALIDATION"] = "1"
    return env


GPU = ["-init_hw_device", "cuda=cu:0", "-filter_hw_device", "cu"]


def psnr(ffmpeg, a, b, size, pix_fmt):
    raw = ["-f", "rawvideo", "-pix_fmt", pix_fmt, "-s", size]
    out = subprocess.run([ffmpeg, "-hide_banner", "-nostdin"] + raw + ["-i", a] + raw +
                         ["-i", b, "-lavfi", "psnr", "-f", "null", "-"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         timeout=300).stderr
    m = re.search(r"average:(inf|[0-9.]+)", out)
    if not m:
        raise RuntimeError(f"no PSNR in ffmpeg's output:\n{out}")
    return float("inf") if m.group(1) == "inf" else float(m.group(1))


def check_hwupload(args, work):
    cpu = os.path.join(work, "hwupload_cpu.nv12")
    gpu = os.path.join(work, "hwupload_gpu.nv12")
    frames = ["-frames:v", str(FRAMES)]
    run(args.ffmpeg, SOURCE + frames + ["-vf", "format=nv12", "-f", "rawvideo", cpu])
    run(args.ffmpeg, GPU + SOURCE + frames +
        ["-vf", "format=nv12,hwupload,hwdownload,format=nv12", "-f", "rawvideo", gpu],
        env=gpu_env(args.dropin))
    with open(cpu, "rb") as f_cpu, open(gpu, "rb") as f_gpu:
        a, b = f_cpu.read(), f_gpu.read()
    if len(a) != WIDTH * HEIGHT * 3 // 2 * FRAMES or a != b:
        raise RuntimeError(f"hwupload/hwdownload changed the frames ({len(a)} vs {len(b)} bytes)")
    return "bit for bit"


def check_scale(args, work, algo, cpu_flags):
    size = "320:180"
    cpu = os.path.join(work, f"scale_{algo}_cpu.yuv")
    gpu = os.path.join(work, f"scale_{algo}_gpu.yuv")
    frames = ["-frames:v", str(FRAMES)]
    run(args.ffmpeg, SOURCE + frames +
        ["-vf", f"format=yuv420p,scale={size}:flags={cpu_flags}", "-f", "rawvideo", cpu])
    run(args.ffmpeg, GPU + SOURCE + frames +
        ["-vf", f"format=yuv420p,hwupload,scale_cuda={size}:interp_algo={algo},hwdownload,"
         "format=yuv420p", "-f", "rawvideo", gpu], env=gpu_env(args.dropin))
    value = psnr(args.ffmpeg, gpu, cpu, "320x180", "yuv420p")
    if value < args.min_psnr:
        raise RuntimeError(f"scale_cuda {algo}: PSNR {value:.2f} dB against the CPU scale, "
                           f"below {args.min_psnr} dB")
    return f"PSNR {value:.2f} dB"


CHECKS = {
    "hwupload": check_hwupload,
    "scale_nearest": lambda args, work: check_scale(args, work, "nearest", "neighbor"),
    "scale_bilinear": lambda args, work: check_scale(args, work, "bilinear", "bilinear"),
    "scale_bicubic": lambda args, work: check_scale(args, work, "bicubic", "bicubic"),
    "scale_lanczos": lambda args, work: check_scale(args, work, "lanczos", "lanczos"),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dropin", required=True, help="folder holding the drop-in libcuda.so.1")
    parser.add_argument("--ffmpeg", default="/usr/bin/ffmpeg")
    parser.add_argument("--checks", default=",".join(CHECKS))
    parser.add_argument("--min-psnr", type=float, default=35.0)
    parser.add_argument("--work", default=None, help="folder for the frames (default: a temp)")
    args = parser.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as temp:
        work = args.work or temp
        os.makedirs(work, exist_ok=True)
        for name in args.checks.split(","):
            try:
                print(f"{name}: ok ({CHECKS[name](args, work)})", flush=True)
            except Exception as e:  # pylint: disable=broad-except
                failed += 1
                print(f"{name}: FAILED: {e}", flush=True)
    if failed:
        return 1
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
