#!/usr/bin/env python3
"""Writes everything that follows from the list of entry points.

From entry_points.tsv (the CUDA forms: function, version, NVIDIA's symbol,
per-thread symbol) and the binding headers. A form whose signature differs
from the plain name's (cuCtxCreate_v4, cuMemAdvise_v2, ...) is declared in
cuda.h under its symbol and defined by the binding; its per-thread variant
forwards to it.

  cuda_entry_points.cc  the exports under NVIDIA's names (cuMemAlloc_v2,
                        cuMemcpyHtoD_v2_ptds, cuLaunchKernel_ptsz, ...), each a
                        call of the function streamhal's cuda.h declares, and
                        the cuGetProcAddress table;
  hip_entry_points.c    the hipGetProcAddress table: every function of the
                        HIP headers (AMD's library exports the plain names);
  libcuda.map           the version script of the drop-in libcuda.so.1: the
                        exact list of CUDA symbols, everything else local;
  cuda_symbols.txt      that list, one a line, for the symbol check;
  hip_symbols.txt       the HIP functions, which the drop-in libamdhip64.so.6
                        must export.

Python 3 standard library only. Usage:
  gen_entry_points.py --table TSV --cuda-header H [...] --hip-header H [...]
                      --output-dir DIR
"""

import argparse
import os
import re
import sys


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def strip_namespaces(text):
    """Drops namespace blocks of declarations (AMD's hip_impl::hip_init): C++
    functions, no C entry points."""
    return re.sub(r"\bnamespace\s+\w+\s*\{[^{}]*\}", " ", text)


def split_params(params):
    parts, depth, current = [], 0, ""
    for ch in params:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [" ".join(p.split()) for p in parts if p.strip() and p.strip() != "void"]


class Param:
    def __init__(self, text):
        m = re.fullmatch(r"(.*?)\b(\w+)((?:\[\w*\])*)", text)
        if not m or not m.group(1).strip():
            raise ValueError("cannot read the parameter %r" % text)
        self.type = m.group(1).strip() + m.group(3)
        self.name = m.group(2)
        self.text = text


def cuda_prototypes(paths):
    text = " ".join(strip_comments(open(path).read()) for path in paths)
    protos = {}
    for m in re.finditer(r"\bCUresult\s+CUDAAPI\s+(cu\w+)\s*\(([^;]*?)\)\s*;", text, flags=re.S):
        protos[m.group(1)] = [Param(p) for p in split_params(m.group(2))]
    return protos


def hip_prototypes(paths):
    """The first declaration of each HIP function (C declarations come before
    the C++ overloads)."""
    protos = {}
    for path in paths:
        text = strip_namespaces(strip_comments(open(path).read()))
        for m in re.finditer(r"(?:^|[;{}])\s*hipError_t\s+(hip\w+)\s*\(([^;{}]*?)\)\s*;", text,
                             flags=re.M):
            protos.setdefault(m.group(1), m.group(2))
    return protos


def hip_functions(paths):
    names = set()
    for path in paths:
        text = strip_namespaces(strip_comments(open(path).read()))
        # Declarations only: the C++ templates and overloads are `inline`.
        for m in re.finditer(r"(^|[;{}])\s*(?:hipError_t|const\s+char\s*\*)\s*(hip\w+)\s*\(",
                             text, flags=re.M):
            names.add(m.group(2))
    return sorted(names)


def read_table(path):
    rows = []
    for number, line in enumerate(open(path), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            sys.exit("%s:%d: expected 4 tab-separated fields" % (path, number))
        function, version, symbol, per_thread = fields
        pt_symbol, pt_version = None, None
        if per_thread != "-":
            pt_symbol, _, pt_version = per_thread.partition("@")
            if not re.fullmatch(r"\w+_(ptds|ptsz)", pt_symbol) or not pt_version.isdigit():
                sys.exit("%s:%d: per_thread must be NAME_ptds@VERSION or NAME_ptsz@VERSION"
                         % (path, number))
            pt_version = int(pt_version)
        rows.append((function, int(version), None if symbol == "-" else symbol, pt_symbol,
                     pt_version))
    return rows


# Structures that carry the stream of a per-thread (_ptsz) variant.
STREAM_MEMBERS = {"const CUlaunchConfig*": "hStream",
                  "CUDA_GRAPH_INSTANTIATE_PARAMS*": "hUploadStream"}


def forwarding(name, target, params, per_thread):
    decl = ", ".join(p.text for p in params) or "void"
    args = [p.name for p in params]
    body = []
    if per_thread == "ptds":
        body.append("  streamhal::cuda::PerThreadDefaultStreamScope per_thread;")
    elif per_thread == "ptsz":
        streams = [i for i, p in enumerate(params) if p.type == "CUstream"]
        members = [i for i, p in enumerate(params) if p.type in STREAM_MEMBERS]
        if streams:
            for i in streams:
                args[i] = "streamhal::cuda::PerThread(%s)" % params[i].name
        elif len(members) == 1:
            p = params[members[0]]
            member = STREAM_MEMBERS[p.type]
            copy_type = p.type.replace("const ", "").rstrip("*").strip()
            body.append("  if (%s == nullptr) return %s(%s);" % (p.name, target, ", ".join(args)))
            body.append("  %s copy = *%s;" % (copy_type, p.name))
            body.append("  copy.%s = streamhal::cuda::PerThread(copy.%s);" % (member, member))
            args[members[0]] = "&copy"
            if not p.type.startswith("const "):
                # The call writes results into the structure: hand them back,
                # with the caller's own stream.
                body.append("  const CUresult result = %s(%s);" % (target, ", ".join(args)))
                body.append("  copy.%s = %s->%s;" % (member, p.name, member))
                body.append("  *%s = copy;" % p.name)
                body.append("  return result;")
                return "CUresult CUDAAPI %s(%s) {\n%s\n}\n" % (name, decl, "\n".join(body))
        else:
            sys.exit("%s: no stream argument to make per-thread" % name)
    body.append("  return %s(%s);" % (target, ", ".join(args)))
    return "CUresult CUDAAPI %s(%s) {\n%s\n}\n" % (name, decl, "\n".join(body))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--table", required=True)
    # cuda.h and the interop headers beside it (cudaGL.h, cudaProfiler.h, ...).
    parser.add_argument("--cuda-header", action="append", required=True)
    parser.add_argument("--hip-header", action="append", default=[])
    parser.add_argument("--output-dir", required=True)
    args = parser.parse_args()

    protos = cuda_prototypes(args.cuda_header)
    all_rows = read_table(args.table)
    # HIP rows: names AMD's library exports besides the plain ones (its
    # headers map hipGetDeviceProperties to hipGetDevicePropertiesR0600).
    hip_rows = [r for r in all_rows if r[0].startswith("hip")]
    rows = [r for r in all_rows if not r[0].startswith("hip")]
    # A form of another signature is a function of its own in cuda.h
    # (cuCtxCreate_v4 beside cuCtxCreate): its row names it as the symbol.
    listed = {row[0] for row in rows}
    forms = {row[2] for row in rows if row[2] in protos and row[2] not in listed}
    missing = sorted(set(protos) - listed - forms)
    unknown = sorted(listed - set(protos))
    if missing or unknown:
        sys.exit("%s: functions of cuda.h without a row: %s; rows of functions cuda.h lacks: %s"
                 % (args.table, " ".join(missing) or "none", " ".join(unknown) or "none"))

    wrappers, exported, seen = [], set(protos), set()
    for function, _, symbol, pt_symbol, _ in rows:
        # The definition of the form: the function itself, or the form's own
        # function where cuda.h declares one.
        target = symbol if symbol in forms else function
        for name, kind in ((symbol, None), (pt_symbol, pt_symbol and pt_symbol[-4:])):
            if name is None or name in protos or name in seen:
                continue
            seen.add(name)
            exported.add(name)
            wrappers.append(forwarding(name, target, protos[target], kind))

    entries = []
    for function, version, symbol, pt_symbol, pt_version in sorted(rows, key=lambda r: (r[0], r[1])):
        fn = "Fn(&%s)" % symbol if symbol else "nullptr"
        pt = "Fn(&%s)" % pt_symbol if pt_symbol else "nullptr"
        entries.append('    {"%s", %d, %s, %d, %s},' % (function, version, fn, pt_version or 0, pt))

    header = "// Generated by libs/cuda_binding/gen_entry_points.py from entry_points.tsv; do not edit.\n"
    out = os.path.join(args.output_dir, "cuda_entry_points.cc")
    with open(out + ".tmp", "w") as f:
        f.write(header)
        f.write("".join("#include <%s>\n" % os.path.basename(h) for h in args.cuda_header))
        f.write('\n#include "core/entry_points.h"\n#include "per_thread_stream.h"\n\n')
        f.write('extern "C" {\n\n')
        f.write("\n".join(wrappers))
        f.write('\n}  // extern "C"\n\nnamespace streamhal::cuda {\nnamespace {\n\n')
        f.write("template <typename F>\nStreamhalEntryPointFn Fn(F* function) {\n"
                "  return reinterpret_cast<StreamhalEntryPointFn>(function);\n}\n\n")
        f.write("}  // namespace\n\n")
        f.write("extern const StreamhalEntryPoint kEntryPoints[] = {\n%s\n};\n" % "\n".join(entries))
        f.write("extern const size_t kEntryPointCount = sizeof(kEntryPoints) / sizeof(kEntryPoints[0]);\n")
        f.write("\n}  // namespace streamhal::cuda\n")
    os.replace(out + ".tmp", out)

    hip = hip_functions(args.hip_header)
    hip_protos = hip_prototypes(args.hip_header)
    hip_wrappers = []
    for function, _, symbol, pt_symbol, _ in hip_rows:
        if function not in hip_protos or pt_symbol:
            sys.exit("%s: %s is no HIP function of the headers, or has a per-thread form"
                     % (args.table, function))
        params = [Param(p) for p in split_params(hip_protos[function])]
        hip_wrappers.append("hipError_t %s(%s) {\n  return %s(%s);\n}\n" % (
            symbol, ", ".join(p.text for p in params) or "void", function,
            ", ".join(p.name for p in params)))
    out = os.path.join(args.output_dir, "hip_entry_points.c")
    with open(out + ".tmp", "w") as f:
        f.write(header.replace("//", "/*", 1).rstrip("\n") + " */\n")
        f.write("#include <hip/hip_ext.h>\n#include <hip/hip_runtime_api.h>\n\n")
        f.write('#include "core/entry_points.h"\n\n')
        for wrapper in hip_wrappers:
            f.write("hipError_t %s;\n" % wrapper.split(" {")[0].split(" ", 1)[1])
        f.write("\n" + "\n".join(hip_wrappers) + "\n")
        f.write("/* Every HIP function, from HIP 6.0 (AMD's hipGetProcAddress looks plain names up). */\n")
        f.write("const StreamhalEntryPoint kStreamhalHipEntryPoints[] = {\n")
        for name in hip:
            f.write('    {"%s", 0, (StreamhalEntryPointFn)&%s, 0, 0},\n' % (name, name))
        f.write("};\nconst size_t kStreamhalHipEntryPointCount =\n"
                "    sizeof(kStreamhalHipEntryPoints) / sizeof(kStreamhalHipEntryPoints[0]);\n")
    os.replace(out + ".tmp", out)

    with open(os.path.join(args.output_dir, "hip_symbols.txt"), "w") as f:
        f.write("".join(s + "\n" for s in sorted(hip + [r[2] for r in hip_rows])))

    symbols = sorted(exported)
    with open(os.path.join(args.output_dir, "cuda_symbols.txt"), "w") as f:
        f.write("".join(s + "\n" for s in symbols))
    with open(os.path.join(args.output_dir, "libcuda.map"), "w") as f:
        f.write("/* Generated by gen_entry_points.py: the CUDA API and nothing else. */\n{\n  global:\n")
        f.write("".join("    %s;\n" % s for s in symbols))
        f.write("  local:\n    *;\n};\n")


if __name__ == "__main__":
    main()
