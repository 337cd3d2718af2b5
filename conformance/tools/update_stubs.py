#!/usr/bin/env python3
"""Rewrites the stub lists of libs/{cuda,hip}_binding/src/unsupported.cc.

Every function a binding's public headers declare must be defined by the
binding (cuda.h and its interop headers; every hip/*.h, hip/hip_runtime_api.h first). Those no other
source file of the binding defines yet get a stub in unsupported.cc that
returns CUDA_ERROR_NOT_SUPPORTED / hipErrorNotSupported. This script
recomputes that list from the headers and the other sources and rewrites the
part of unsupported.cc between 'extern "C" {' and '}  // extern "C"', grouped
by the headers' section comments. Deleting a
line by hand when implementing a function is just as good; run this after
adding declarations to a header, or to check (--check) that the lists are
current.

Usage: update_stubs.py [--check] [REPOSITORY_ROOT]
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
from typing import Dict, List, Set, Tuple

# (binding, its public headers relative to the binding; a glob pattern's
# matches are taken in name order, each header once).
BINDINGS = (
    ("libs/cuda_binding", ("include/cuda.h", "include/cudaGL.h", "include/cudaEGL.h",
                           "include/cudaVDPAU.h", "include/cudaProfiler.h")),
    ("libs/hip_binding", ("include/hip/hip_runtime_api.h", "include/hip/*.h")),
)
DECLARATION = re.compile(
    r"^(CUresult CUDAAPI|hipError_t|void\*\*|void|const char\*)\s+(\w+)\s*\(([^;]*?)\)\s*;",
    re.M | re.S)
COMMENT = re.compile(r"^/\*\s*(.*?)\s*\*/$")
BEGIN = 'extern "C" {'
END = '}  // extern "C"'


def strip_names(parameters: str) -> str:
    """'CUdeviceptr *dptr, size_t bytesize' -> 'CUdeviceptr*, size_t'."""
    parameters = re.sub(r"STREAMHAL_HIP_DEFAULT\([^)]*\)", "", parameters)
    parameters = " ".join(parameters.split())
    if parameters in ("", "void"):
        return "void"
    types = []
    for parameter in parameters.split(","):
        parameter = parameter.strip()
        match = re.match(r"^(.*?[\s*&])(\w+)$", parameter)
        kind = parameter
        if match and match.group(1).strip() not in ("", "const", "struct", "enum"):
            kind = match.group(1).strip()
        kind = re.sub(r"\s*\*\s*", "*", kind)
        kind = re.sub(r"\*(?=[^*])", "* ", kind).strip()
        types.append(kind)
    return ", ".join(types)


def section_title(comment: str) -> str:
    """The title if a one-line comment heads a section of declarations:
    'Devices ------' (HIP) or a short 'Memory management.' (CUDA); explanatory
    comments on single functions are sentences with more to say."""
    if comment.endswith("--"):
        return comment.rstrip(" -")
    if re.fullmatch(r"[A-Z][^;]{0,58}\.", comment):
        return comment[:-1]
    return ""


def headers(directory: str, patterns: Tuple[str, ...]) -> List[str]:
    """The header paths the patterns name, in order, without repeats."""
    result: List[str] = []
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(directory, pattern))):
            if path not in result:
                result.append(path)
    return result


def declarations(header: str) -> List[Tuple[str, str, str, str]]:
    """(section, return type, name, parameter types) in header order."""
    with open(header, encoding="utf-8") as f:
        text = f.read()
    sections: List[Tuple[int, str]] = []
    offset = 0
    for line in text.splitlines(keepends=True):
        match = COMMENT.match(line.strip())
        if match:
            title = section_title(match.group(1))
            if title:
                sections.append((offset, title))
        offset += len(line)
    clean = re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group(0)), text, flags=re.S)
    result = []
    for match in DECLARATION.finditer(clean):
        section = ""
        for start, title in sections:
            if start < match.start():
                section = title
        result.append((section, match.group(1), match.group(2), strip_names(match.group(3))))
    return result


def defined_elsewhere(source_dir: str) -> Set[str]:
    names = set()
    for path in glob.glob(os.path.join(source_dir, "*.cc")):
        base = os.path.basename(path)
        if base == "unsupported.cc" or base.endswith("_test.cc"):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        names.update(re.findall(
            r"^(?:CUresult|hipError_t|const char\*|void\*\*|void)\s+(\w+)\s*\([^;]*?\)\s*\{",
            text, re.M | re.S))
    return names


def stub_lines(entries: List[Tuple[str, str, str, str]], defined: Set[str]) -> List[str]:
    macros: Dict[str, str] = {"CUresult CUDAAPI": "SH_NOT_IMPLEMENTED",
                              "hipError_t": "SH_NOT_IMPLEMENTED",
                              "void": "SH_NOT_IMPLEMENTED_VOID",
                              "void**": "SH_NOT_IMPLEMENTED_NULL"}
    lines: List[str] = []
    current = None
    for section, returns, name, parameters in entries:
        if name in defined:
            continue
        if section != current:
            lines += ["", f"// {section}" if section else "// (no section)"]
            current = section
        macro = macros.get(returns)
        if macro is None:
            sys.exit(f"{name} returns {returns}: no stub macro for that; write its stub by hand")
        lines.append(f"{macro}({name}, ({parameters}))")
    return lines[1:] if lines and not lines[0] else lines


def rewrite(path: str, lines: List[str]) -> str:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    begin = text.index(BEGIN) + len(BEGIN)
    end = text.index(END)
    return text[:begin] + "\n" + "\n".join(lines) + "\n\n" + text[end:]


def formatted(path: str, text: str) -> str:
    """The text as clang-format (if installed) would write it."""
    clang_format = shutil.which("clang-format")
    if clang_format is None:
        return text
    result = subprocess.run([clang_format, f"--assume-filename={path}"], input=text,
                            capture_output=True, text=True, check=True)
    return result.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="only report whether the lists are current (exit 1 if not)")
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("root", nargs="?", default=os.path.join(here, "..", ".."),
                        help="the repository root (default: the one holding this script)")
    args = parser.parse_args()
    stale = False
    for binding, patterns in BINDINGS:
        directory = os.path.join(args.root, binding)
        path = os.path.join(directory, "src", "unsupported.cc")
        entries = []
        for header in headers(directory, patterns):
            entries += declarations(header)
        defined = defined_elsewhere(os.path.join(directory, "src"))
        lines = stub_lines(entries, defined)
        with open(path, encoding="utf-8") as f:
            old = f.read()
        new = formatted(path, rewrite(path, lines))
        count = sum(1 for line in lines if line.startswith("SH_NOT_IMPLEMENTED"))
        if new == old:
            print(f"{binding}: {count} stubs, current")
            continue
        stale = True
        if args.check:
            print(f"{binding}: the stub list is out of date; run {sys.argv[0]}")
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print(f"{binding}: rewrote {count} stubs")
    if args.check and stale:
        sys.exit(1)


if __name__ == "__main__":
    main()
