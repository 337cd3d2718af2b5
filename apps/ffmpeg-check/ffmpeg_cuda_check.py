#!/usr/bin/env python3
"""Runs the stock ffmpeg's CUDA filters on streamhal's drop-in libcuda.so.1.

ffmpeg (Debian's package, built by someone else) loads libcuda.so.1 with
dlopen; LD_LIBRARY_PATH points it at the drop-in library, which runs its
kernels (clang's PTX, embedded in libavfilter) on the Vulkan device. Each
check compares the output with ffmpeg's own CPU filters on the same input
(640x360 testsrc2 frames):

  hwupload     format=nv12,hwupload,hwdownload returns the input bit for bit
  scale_ALGO   scale_cuda=320:180:interp_algo=ALGO vs scale=320:180:flags=ALGO
               (nearest: neighbor) for nearest, bilinear, bicubic and lanczos:
               PSNR at least --min-psnr dB (35)
  yadif        yadif_cuda vs yadif: PSNR at least --min-psnr dB
  thumbnail    thumbnail_cuda=n=4 vs thumbnail=n=4 over 8 frames: the same
               frames are picked, so the output is bit for bit the CPU's
  overlay      overlay_cuda of an opaque 160x90 testsrc at (50,40) vs overlay:
               bit for bit
  overlay_alpha  the same with the overlay at 50% alpha (yuva420p): every
               sample within 1 of the CPU's (the two filters round the blend
               differently)
  chromakey    chromakey_cuda vs chromakey, keying green at similarity 0.2:
               the alpha planes agree on at least 99% of the pixels and key
               the same share of them (about 16%); the Y, U and V planes are,
               within 1, the CUDA kernel's own reads (it samples each plane at
               texel corners with linear filtering, so every output sample is
               the mean of a 2x2 quad of input samples where the CPU filter
               copies; the 1 is the rounding of filtered 8-bit texels)

Any Vulkan validation message (STREAMHAL_VALIDATION=1 prints them with a
"validation:" prefix) and any CUDA error ffmpeg reports ("failed ->
CUDA_ERROR_...") fails the check.

Usage: ffmpeg_cuda_check.py (--dropin DIR | --install-from BUILD_DIR)
           [--ffmpeg PATH] [--cmake PATH] [--checks a,b] [--work DIR]
--install-from installs the build into a scratch prefix (cmake --install)
and runs ffmpeg on the installed <prefix>/<libdir>/streamhal-dropin.
Prints PASSED at the end when every check passed; exits 1 otherwise.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

WIDTH, HEIGHT, FRAMES = 640, 360, 3
SOURCE = ["-f", "lavfi", "-i", f"testsrc2=size={WIDTH}x{HEIGHT}:rate=25"]
GPU = ["-init_hw_device", "cuda=cu:0", "-filter_hw_device", "cu"]


def run(ffmpeg, args, env=None):
    cmd = [ffmpeg, "-hide_banner", "-nostdin", "-loglevel", "error", "-y"] + args
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=900)
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{output}")
    if "validation:" in output:
        raise RuntimeError(f"{' '.join(cmd)} reported Vulkan validation messages:\n{output}")
    if "CUDA_ERROR" in output:
        raise RuntimeError(f"{' '.join(cmd)} reported CUDA errors:\n{output}")
    return output


def gpu_env(dropin):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = dropin + (":" + env["LD_LIBRARY_PATH"]
                                       if env.get("LD_LIBRARY_PATH") else "")
    env["STREAMHAL_VALIDATION"] = "1"
    return env


def run_cpu_and_gpu(args, work, name, cpu_args, gpu_args):
    """Runs ffmpeg on the CPU and on the drop-in library; returns both outputs."""
    cpu = os.path.join(work, f"{name}_cpu.raw")
    gpu = os.path.join(work, f"{name}_gpu.raw")
    run(args.ffmpeg, cpu_args + ["-f", "rawvideo", cpu])
    run(args.ffmpeg, GPU + gpu_args + ["-f", "rawvideo", gpu], env=gpu_env(args.dropin))
    with open(cpu, "rb") as f_cpu, open(gpu, "rb") as f_gpu:
        return f_cpu.read(), f_gpu.read()


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


def expect_size(data, frame_bytes, frames, what):
    if len(data) != frame_bytes * frames:
        raise RuntimeError(f"{what}: {len(data)} bytes, not {frames} frames of {frame_bytes}")


def check_hwupload(args, work):
    frames = ["-frames:v", str(FRAMES)]
    cpu, gpu = run_cpu_and_gpu(args, work, "hwupload", SOURCE + frames + ["-vf", "format=nv12"],
                               SOURCE + frames +
                               ["-vf", "format=nv12,hwupload,hwdownload,format=nv12"])
    expect_size(cpu, WIDTH * HEIGHT * 3 // 2, FRAMES, "hwupload")
    if cpu != gpu:
        raise RuntimeError(f"hwupload/hwdownload changed the frames ({len(cpu)} vs {len(gpu)} "
                           "bytes)")
    return "bit for bit"


def check_psnr(args, work, name, cpu_filter, gpu_filter, size):
    frames = ["-frames:v", str(FRAMES)]
    run_cpu_and_gpu(args, work, name, SOURCE + frames + ["-vf", f"format=yuv420p,{cpu_filter}"],
                    SOURCE + frames +
                    ["-vf", f"format=yuv420p,hwupload,{gpu_filter},hwdownload,format=yuv420p"])
    value = psnr(args.ffmpeg, os.path.join(work, f"{name}_gpu.raw"),
                 os.path.join(work, f"{name}_cpu.raw"), size, "yuv420p")
    if value < args.min_psnr:
        raise RuntimeError(f"{gpu_filter}: PSNR {value:.2f} dB against {cpu_filter}, "
                           f"below {args.min_psnr} dB")
    return f"PSNR {value:.2f} dB"


def check_scale(args, work, algo, cpu_flags):
    return check_psnr(args, work, f"scale_{algo}", f"scale=320:180:flags={cpu_flags}",
                      f"scale_cuda=320:180:interp_algo={algo}", "320x180")


def check_thumbnail(args, work):
    # 8 input frames; passthrough: no frames duplicated to keep the rate.
    source = ["-f", "lavfi", "-i", f"testsrc2=size={WIDTH}x{HEIGHT}:rate=25:duration=0.32",
              "-fps_mode", "passthrough"]
    cpu, gpu = run_cpu_and_gpu(args, work, "thumbnail",
                               source + ["-vf", "format=yuv420p,thumbnail=n=4"],
                               source + ["-vf", "format=yuv420p,hwupload,"
                                         "thumbnail_cuda=n=4,hwdownload,format=yuv420p"])
    expect_size(cpu, WIDTH * HEIGHT * 3 // 2, 2, "thumbnail")
    if cpu != gpu:
        raise RuntimeError("thumbnail_cuda picked other frames than thumbnail")
    return "the same 2 of 8 frames, bit for bit"


def overlay_outputs(args, work, name, overlay_format):
    frames = ["-frames:v", str(FRAMES)]
    overlay = ["-f", "lavfi", "-i", "testsrc=size=160x90:rate=25,format=yuva420p," +
               ("colorchannelmixer=aa=0.5" if overlay_format == "yuva420p" else "null")]
    cpu, gpu = run_cpu_and_gpu(
        args, work, name, SOURCE + overlay + frames +
        ["-filter_complex", f"[0:v]format=yuv420p[m];[1:v]format={overlay_format}[o];"
         "[m][o]overlay=x=50:y=40:format=yuv420,format=yuv420p"],
        SOURCE + overlay + frames +
        ["-filter_complex", f"[0:v]format=yuv420p,hwupload[m];[1:v]format={overlay_format},"
         "hwupload[o];[m][o]overlay_cuda=x=50:y=40,hwdownload,format=yuv420p"])
    expect_size(cpu, WIDTH * HEIGHT * 3 // 2, FRAMES, name)
    expect_size(gpu, WIDTH * HEIGHT * 3 // 2, FRAMES, name)
    return cpu, gpu


def check_overlay(args, work):
    cpu, gpu = overlay_outputs(args, work, "overlay", "yuv420p")
    if cpu != gpu:
        differ = sum(1 for a, b in zip(cpu, gpu) if a != b)
        raise RuntimeError(f"overlay_cuda: {differ} samples differ from overlay")
    return "bit for bit"


def check_overlay_alpha(args, work):
    cpu, gpu = overlay_outputs(args, work, "overlay_alpha", "yuva420p")
    worst = max(abs(a - b) for a, b in zip(cpu, gpu))
    if worst > 1:
        raise RuntimeError(f"overlay_cuda with alpha: a sample is {worst} from overlay's")
    blended = sum(1 for a, b in zip(cpu, gpu) if a != b)
    return f"every sample within {worst} ({blended} of {len(cpu)} differ by 1)"


def check_chromakey(args, work):
    frames = ["-frames:v", str(FRAMES)]
    key = "color=0x00ff00:similarity=0.2"
    cpu, gpu = run_cpu_and_gpu(
        args, work, "chromakey",
        SOURCE + frames + ["-vf", f"format=yuv420p,chromakey={key},format=yuva420p"],
        SOURCE + frames + ["-vf", f"format=yuv420p,hwupload,chromakey_cuda={key},hwdownload,"
                           "format=yuva420p"])
    source = os.path.join(work, "chromakey_source.raw")
    run(args.ffmpeg, SOURCE + frames + ["-vf", "format=yuv420p", "-f", "rawvideo", source])
    with open(source, "rb") as f:
        src = f.read()
    luma, chroma = WIDTH * HEIGHT, (WIDTH // 2) * (HEIGHT // 2)
    in_frame, out_frame = luma + 2 * chroma, 2 * luma + 2 * chroma
    expect_size(src, in_frame, FRAMES, "chromakey source")
    expect_size(cpu, out_frame, FRAMES, "chromakey")
    expect_size(gpu, out_frame, FRAMES, "chromakey_cuda")
    # Y, U and V: what the kernel reads, tex2D(x, y) with linear filtering
    # at texel corners: the mean of texels x-1..x, y-1..y (clamped).
    worst = 0
    for f in range(FRAMES):
        for offset, width, height in ((0, WIDTH, HEIGHT), (luma, WIDTH // 2, HEIGHT // 2),
                                      (luma + chroma, WIDTH // 2, HEIGHT // 2)):
            plane = src[f * in_frame + offset:f * in_frame + offset + width * height]
            out = gpu[f * out_frame + offset:f * out_frame + offset + width * height]
            for y in range(height):
                up, row = max(y - 1, 0) * width, y * width
                for x in range(width):
                    left = max(x - 1, 0)
                    total = plane[up + left] + plane[up + x] + plane[row + left] + plane[row + x]
                    worst = max(worst, abs(out[row + x] - int(total / 4)))
    if worst > 1:
        raise RuntimeError(f"chromakey_cuda: a Y/U/V sample is {worst} from the kernel's reads")
    alpha_at = luma + 2 * chroma
    agree = keyed_cpu = keyed_gpu = 0
    for f in range(FRAMES):
        a_cpu = cpu[f * out_frame + alpha_at:(f + 1) * out_frame]
        a_gpu = gpu[f * out_frame + alpha_at:(f + 1) * out_frame]
        agree += sum(1 for a, b in zip(a_cpu, a_gpu) if a == b)
        keyed_cpu += a_cpu.count(0)
        keyed_gpu += a_gpu.count(0)
    pixels = luma * FRAMES
    if agree < 0.99 * pixels or keyed_cpu < 0.05 * pixels or \
            abs(keyed_cpu - keyed_gpu) > 0.01 * pixels:
        raise RuntimeError(f"chromakey_cuda: alpha agrees on {agree / pixels:.2%}; keyed "
                           f"{keyed_gpu / pixels:.2%} vs the CPU's {keyed_cpu / pixels:.2%}")
    return (f"alpha agrees on {agree / pixels:.2%}, keyed {keyed_gpu / pixels:.2%} vs "
            f"{keyed_cpu / pixels:.2%}; Y/U/V within {worst} of the kernel's reads")


CHECKS = {
    "hwupload": check_hwupload,
    "scale_nearest": lambda args, work: check_scale(args, work, "nearest", "neighbor"),
    "scale_bilinear": lambda args, work: check_scale(args, work, "bilinear", "bilinear"),
    "scale_bicubic": lambda args, work: check_scale(args, work, "bicubic", "bicubic"),
    "scale_lanczos": lambda args, work: check_scale(args, work, "lanczos", "lanczos"),
    "yadif": lambda args, work: check_psnr(args, work, "yadif", "yadif", "yadif_cuda",
                                           f"{WIDTH}x{HEIGHT}"),
    "thumbnail": check_thumbnail,
    "overlay": check_overlay,
    "overlay_alpha": check_overlay_alpha,
    "chromakey": check_chromakey,
}


def install(cmake, build_dir, work):
    prefix = os.path.join(work, "prefix")
    subprocess.run([cmake, "--install", build_dir, "--prefix", prefix], check=True,
                   stdout=subprocess.DEVNULL)
    found = glob.glob(os.path.join(prefix, "*", "streamhal-dropin", "libcuda.so.1")) + \
        glob.glob(os.path.join(prefix, "*", "*", "streamhal-dropin", "libcuda.so.1"))
    if not found:
        raise RuntimeError(f"no streamhal-dropin/libcuda.so.1 under the installed {prefix}")
    return os.path.dirname(found[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--dropin", help="folder holding the drop-in libcuda.so.1")
    source.add_argument("--install-from", help="build folder to install and test")
    parser.add_argument("--ffmpeg", default="/usr/bin/ffmpeg")
    parser.add_argument("--cmake", default="cmake", help="cmake, for --install-from")
    parser.add_argument("--checks", default=",".join(CHECKS))
    parser.add_argument("--min-psnr", type=float, default=35.0)
    parser.add_argument("--work", default=None, help="folder for the frames (default: a temp)")
    args = parser.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as temp:
        work = args.work or temp
        os.makedirs(work, exist_ok=True)
        if args.install_from:
            args.dropin = install(args.cmake, args.install_from, work)
            print(f"installed the drop-in library: <prefix>/"
                  f"{os.path.relpath(args.dropin, os.path.join(work, 'prefix'))}", flush=True)
        for name in args.checks.split(","):
            start = time.monotonic()
            try:
                result = CHECKS[name](args, work)
                print(f"{name}: ok ({result}) [{time.monotonic() - start:.0f} s]", flush=True)
            except Exception as e:  # pylint: disable=broad-except
                failed += 1
                print(f"{name}: FAILED: {e}", flush=True)
    if failed:
        return 1
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
