#!/usr/bin/env python3
"""Generates the bad-input sweep's case table from the public API headers.

Every function of cuda.h returning CUresult and of the hip/*.h headers
returning hipError_t gets one baseline case (every argument valid) and, for
each argument that is a handle, a pointer, a size, a device ordinal, a flag
word or an enumeration, one case per bad value of that argument with every
other argument valid. What a parameter is follows from its type and name;
sweep_hints.tsv corrects that where the API documents something the
declaration cannot say (an optional output, a host pointer typed void*, a
value that must be one of a few). The roles and variants are read from
sweep_env.h, the runner's side of the contract.

Enumeration arguments are passed the way a C caller passes them: a C++
caller cannot hold an out-of-range value in a C++ enum (that is undefined
behaviour, which UBSan reports in the harness itself), so each function with
an enumeration parameter is called through a C function, written to
--c-output, that takes ints and passes them on; in C an int converts to an
enum parameter and keeps its value.

Python 3 standard library only. Usage:
  gen_sweep_cases.py --cuda-header H --hip-header H [--hip-header H ...] \
                     --env-header H --hints TSV --output sweep_cases.cc \
                     --c-output sweep_c_calls.c [--summary]
"""

import argparse
import fnmatch
import os
import re
import sys

# --- Header parsing ---------------------------------------------------------


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def numeric_defines(text):
    """#define NAME <integer> (with an optional cast) from the raw header."""
    values = {}
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)\s+\(?(?:\(\w+\))?\s*(-?(?:0x[0-9a-fA-F]+|\d+))[uUlL]*\)?\s*$",
                         text, flags=re.M):
        values[m.group(1)] = int(m.group(2), 0)
    return values


def strip_preprocessor(text):
    text = re.sub(r"\\\n", " ", text)
    return "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("#"))


def eval_enum_expr(expr, known):
    expr = re.sub(r"\b([A-Za-z_]\w*)\b", lambda m: str(known[m.group(1)]), expr)
    expr = re.sub(r"(0x[0-9a-fA-F]+|\d+)[uUlL]+", r"\1", expr)
    if not re.fullmatch(r"[0-9a-fA-FxX\s()<>|&+\-~*]+", expr):
        raise ValueError("cannot evaluate enumerator value %r" % expr)
    return int(eval(expr, {"__builtins__": {}}))  # digits and operators only


# Enumerators that mark the end or size of a range rather than name a value.
SENTINEL = re.compile(r"(_MAX|Max|End|Range|Tbd|NUM_OPTIONS|NumOptions|NUM_INPUT_TYPES|"
                      r"NumInputTypes|NumLegacyInputTypes)$")
# "...Count" ends a range only as the last enumerator (hipGraphNodeTypeCount);
# elsewhere it names a value (hipDeviceAttributeMultiprocessorCount).
LAST_SENTINEL = re.compile(r"Count$")


class Enum:
    def __init__(self, names):
        self.names = names          # typedef and tag names
        self.enumerators = []       # (name, value) in order

    def is_sentinel(self, name):
        return bool(SENTINEL.search(name) or
                    (name == self.enumerators[-1][0] and LAST_SENTINEL.search(name)))

    @property
    def valid_values(self):
        return {v for n, v in self.enumerators if not self.is_sentinel(n)}

    @property
    def sentinels(self):
        valid = self.valid_values
        return [(n, v) for n, v in self.enumerators if self.is_sentinel(n) and v not in valid]

    def first_valid(self):
        for n, v in self.enumerators:
            if not self.is_sentinel(n):
                return n, v
        raise ValueError("enum %s has no valid value" % self.names)


def parse_enums(text, known):
    enums = {}
    pattern = re.compile(r"(typedef\s+)?enum\s+(\w+)?\s*\{(.*?)\}\s*(\w+)?\s*;", re.S)
    for m in pattern.finditer(text):
        names = [n for n in (m.group(2), m.group(4)) if n]
        enum = Enum(names)
        value = -1
        for item in m.group(3).split(","):
            item = item.strip()
            if not item:
                continue
            if "=" in item:
                name, expr = (s.strip() for s in item.split("=", 1))
                value = eval_enum_expr(expr, known)
            else:
                name = item
                value += 1
            known[name] = value
            enum.enumerators.append((name, value))
        for n in names:
            enums[n] = enum
    # Another name for an enumeration (typedef CUlaunchAttributeID CUstreamAttrID;).
    for m in re.finditer(r"typedef\s+(\w+)\s+(\w+)\s*;", text):
        if m.group(1) in enums:
            enums[m.group(2)] = enums[m.group(1)]
    return enums


class Param:
    def __init__(self, index, ctype, name):
        self.index = index
        self.ctype = ctype
        self.name = name
        self.role = None
        self.valid = None       # C++ integer expression or None
        self.variants = []      # (variant, value or None, label)
        self.dropped = []       # (label, kind, reason)


class Function:
    def __init__(self, api, name, result_type, params):
        self.api = api
        self.name = name
        self.result_type = result_type
        self.params = params
        self.setup = ""


def split_params(text):
    text = text.strip()
    if text in ("", "void"):
        return []
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    parts.append(cur)
    params = []
    for i, p in enumerate(parts):
        p = " ".join(p.split())
        m = re.fullmatch(r"(.*?[\s*])(\w+)", p)
        if not m:
            raise ValueError("cannot parse parameter %r" % p)
        ctype = re.sub(r"\s*\*", "*", m.group(1).strip())
        params.append(Param(i, ctype, m.group(2)))
    return params


def parse_functions(text, api, result_type):
    text = text.replace("CUDAAPI", " ")
    text = re.sub(r"STREAMHAL_HIP_DEFAULT\([^()]*\)", " ", text)
    functions = []
    for m in re.finditer(r"\b%s\s+(\w+)\s*\(([^;{}]*?)\)\s*;" % result_type, text, re.S):
        functions.append(Function(api, m.group(1), result_type, split_params(m.group(2))))
    return functions


def parse_env_enum(text, name):
    m = re.search(r"enum\s+class\s+%s\s*:\s*\w+\s*\{(.*?)\};" % name, strip_comments(text), re.S)
    if not m:
        raise ValueError("sweep_env.h has no enum class %s" % name)
    return [item.strip()[1:] for item in m.group(1).split(",") if item.strip()]


# --- Classification ---------------------------------------------------------

HANDLE_TYPES = {
    "CUcontext": "Context", "hipCtx_t": "Context",
    "CUmodule": "Module", "hipModule_t": "Module",
    "CUfunction": "Function", "hipFunction_t": "Function",
    "CUstream": "Stream", "hipStream_t": "Stream",
    "CUevent": "Event", "hipEvent_t": "Event",
    "CUlinkState": "LinkState", "hipLinkState_t": "LinkState",
    "CUmemoryPool": "MemPool", "hipMemPool_t": "MemPool",
    "CUmemGenericAllocationHandle": "MemHandle", "hipMemGenericAllocationHandle_t": "MemHandle",
    "CUgraph": "Graph", "hipGraph_t": "Graph",
    "CUgraphNode": "GraphNode", "hipGraphNode_t": "GraphNode",
    "CUgraphExec": "GraphExec", "hipGraphExec_t": "GraphExec",
    "CUarray": "Array", "hipArray_t": "Array", "hipArray_const_t": "Array",
    "CUmipmappedArray": "MipmappedArray", "hipMipmappedArray_t": "MipmappedArray",
    "hipMipmappedArray_const_t": "MipmappedArray",
    "CUtexref": "TexRef", "textureReference*": "TexRef",
    "CUkernel": "Kernel", "CUlibrary": "Library",
    "CUtexObject": "TexObject", "hipTextureObject_t": "TexObject",
    "CUsurfObject": "SurfObject", "hipSurfaceObject_t": "SurfObject",
    "CUexternalMemory": "ExternalMemory", "hipExternalMemory_t": "ExternalMemory",
    "CUexternalSemaphore": "ExternalSemaphore", "hipExternalSemaphore_t": "ExternalSemaphore",
}
# Handles of objects streamhal cannot create yet (external memory and
# semaphores, graphics resources, user objects): passed as null.
# Their functions are stubs; give such a type a role of its own when its
# functions are implemented.
OPAQUE_HANDLE_TYPES = {"CUsurfref", "hipExternalMemory_t", "hipExternalSemaphore_t",
                       "hipGraphicsResource_t", "hipUserObject_t", "CUgraphicsResource",
                       "CUuserObject", "CUgreenCtx", "CUdevResourceDesc", "CUasyncCallbackHandle",
                       "CUlogsCallbackHandle",
                       # Callbacks of calls streamhal does not serve: passed as null.
                       "CUasyncCallback", "CUlogsCallback"}
DEVICE_TYPES = {"CUdevice", "hipDevice_t"}
DEVPTR_TYPES = {"CUdeviceptr", "hipDeviceptr_t"}
FN_TYPES = {"CUhostFn": "HostFn", "hipHostFn_t": "HostFn",
            "CUstreamCallback": "StreamCallback", "hipStreamCallback_t": "StreamCallback",
            "CUoccupancyB2DSize": "OccupancyFn"}
VALUE_TYPES = {"CUipcEventHandle", "CUipcMemHandle", "CUmemLocation", "dim3", "hipPitchedPtr", "hipExtent",
               "hipIpcEventHandle_t", "hipIpcMemHandle_t"}
INT_TYPES = {"int", "unsigned int", "unsigned", "uint32_t", "cuuint32_t", "size_t",
             "unsigned long long", "uint64_t", "cuuint64_t", "int64_t", "unsigned char",
             "unsigned short", "float"}
WIDE_TYPES = {"size_t", "unsigned long long", "uint64_t", "cuuint64_t", "int64_t"}
DEVICE_NAMES = {"dev", "device", "deviceId", "ordinal", "peerDev", "peerDeviceId", "srcDevice",
                "dstDevice", "srcDeviceId", "dstDeviceId"}
HIP_DEVPTR_NAMES = {"dst", "dest", "src", "ptr", "dev_ptr", "devPtr", "dptr"}
SHARED_NAMES = {"sharedMemBytes", "sharedMem", "dynSharedMemPerBlk", "dynamicSMemSize"}


def base_type(ctype):
    t = re.sub(r"\b(const|struct|enum)\b", " ", ctype)
    return " ".join(t.split()).replace(" *", "*")


def devptr_like(fn, p):
    t = base_type(p.ctype)
    return t in DEVPTR_TYPES or (fn.api == "hip" and t == "void*" and p.name in HIP_DEVPTR_NAMES)


def classify(fn, p, enums):
    t = base_type(p.ctype)
    is_const = "const" in p.ctype.split("*")[0]
    if t in HANDLE_TYPES:
        return HANDLE_TYPES[t]
    if t in OPAQUE_HANDLE_TYPES:
        return "Opaque"
    if t in DEVICE_TYPES:
        return "Device"
    if t in DEVPTR_TYPES:
        return "DevPtr"
    if t in FN_TYPES:
        return FN_TYPES[t]
    if t in VALUE_TYPES:
        return "Value"
    if t.endswith("**") or t == "void**":
        return {"kernelParams": "KernelParams", "args": "KernelParams", "extra": "Extra",
                "optionValues": "JitValues", "jitOptionsValues": "JitValues"}.get(p.name, "Out")
    if t.endswith("*"):
        pointee = t[:-1]
        if pointee == "char":
            if not is_const:
                return "HostOut"
            return {"fname": "ModulePath", "path": "ModulePath", "name": "KernelName",
                    "kname": "KernelName", "pciBusId": "PciBusId",
                    "symbol": "SymbolName"}.get(p.name, "HostIn")
        if pointee in ("CUjit_option", "hipJitOption"):
            return "JitOptions"
        if pointee == "void":
            if p.name == "image":
                return "Image"
            if p.name in ("fatCubin", "fatbin"):
                return "FatBinary"
            if p.name == "srcHost":
                return "HostIn"
            if p.name == "dstHost":
                return "HostOut"
            if p.name == "userData":
                return "Opaque"
            if p.name in ("func", "function_address", "f") and is_const:
                return "Function"
            if fn.api == "hip" and p.name in HIP_DEVPTR_NAMES:
                return "DevPtr"
            if p.name in ("p", "hostPtr", "hstPtr"):
                return "PinnedHost"
            return "HostIn" if is_const else "Out"
        return "HostIn" if is_const else "Out"
    if t in enums:
        return "Enum"
    if t in INT_TYPES:
        if p.name in DEVICE_NAMES and t in ("int", "unsigned int"):
            return "Device"
        if p.name in SHARED_NAMES:
            return "SharedBytes"
        if t == "size_t":
            has_devptr = any(devptr_like(fn, q) for q in fn.params)
            return "CopySize" if has_devptr else "Size"
        if re.fullmatch(r"gridDim[XYZ]|globalWorkSize[XYZ]", p.name):
            return "GridDim"
        if re.fullmatch(r"blockDim[XYZ]|localWorkSize[XYZ]", p.name):
            return "BlockDim"
        if p.name.lower() == "flags":
            return "Flags"
        if p.name == "len" and t == "int":
            return "Len"
        return "Scalar"
    raise ValueError("%s: no role for parameter %s %s" % (fn.name, p.ctype, p.name))


ALL_ONES = (1 << 64) - 1
HANDLE_VARIANTS = [("Null", None, "null"), ("Garbage", None, "garbage"),
                   ("Destroyed", None, "destroyed"), ("WrongKind", None, "wrong_kind")]
NAME_VARIANTS = [("Null", None, "null"), ("EmptyString", None, "empty"),
                 ("BogusString", None, "bogus")]
DEFAULT_VARIANTS = {
    "Out": [("Null", None, "null")],
    "HostIn": [("Null", None, "null")],
    "HostOut": [("Null", None, "null")],
    "HostMem": [("Null", None, "null"), ("Garbage", None, "garbage"),
                ("WrongKind", None, "wrong_kind")],
    "PinnedHost": HANDLE_VARIANTS,
    "RegisteredHost": HANDLE_VARIANTS,
    "DevPtr": HANDLE_VARIANTS,
    "DevPtrB": HANDLE_VARIANTS,
    "Managed": HANDLE_VARIANTS,
    "Device": [("Value", ALL_ONES, "-1"), ("Value", 9999, "9999")],
    "Size": [("Value", ALL_ONES, "SIZE_MAX"), ("Value", ALL_ONES >> 1, "SIZE_MAX/2")],
    "CopySize": [("Value", ALL_ONES, "SIZE_MAX"), ("Value", ALL_ONES >> 1, "SIZE_MAX/2"),
                 ("PastEnd", None, "past_end")],
    "Len": [("Value", ALL_ONES, "-1")],
    "Flags": [("Value", ALL_ONES, "~0")],
    "GridDim": [("Value", 0, "0"), ("Value", 0xFFFFFFFF, "0xffffffff")],
    "BlockDim": [("Value", 0, "0"), ("Value", 0xFFFFFFFF, "0xffffffff")],
    "SharedBytes": [("Value", 0xFFFFFFFF, "0xffffffff")],
    "KernelName": NAME_VARIANTS,
    "GlobalName": NAME_VARIANTS,
    "TexName": NAME_VARIANTS,
    "SymbolName": NAME_VARIANTS,
    "PciBusId": NAME_VARIANTS,
    "ModulePath": NAME_VARIANTS + [("Directory", None, "directory")],
    "Image": [("Null", None, "null"), ("JunkImage", None, "junk"), ("ElfNoSections", None, "elf_no_sections"),
              ("BundleNoEntries", None, "bundle_no_entries"), ("SpirvNoSize", None, "spirv_no_size")],
    "FatBinary": [("Null", None, "null"), ("JunkImage", None, "junk"),
                  ("BundleNoEntries", None, "bundle_no_entries")],
    "KernelParams": [("Null", None, "null")],
    "Extra": [("ExtraWithParams", None, "extra_with_params")],
    "JitOptions": [("Null", None, "null"), ("BadOptionId", None, "bad_option_id")],
    "JitValues": [("Null", None, "null")],
    "MemOps": [("Null", None, "null")],
    "HostFn": [("Null", None, "null")],
    "StreamCallback": [("Null", None, "null")],
}
for _h in ("Context", "Module", "Function", "Stream", "Event", "LinkState", "MemPool", "MemHandle",
           "Graph",
           "GraphNode", "GraphExec", "Array", "TexRef", "Kernel", "Library", "TexObject",
           "SurfObject", "ExternalMemory", "ExternalSemaphore", "MipmappedArray"):
    DEFAULT_VARIANTS[_h] = HANDLE_VARIANTS
# CUDA: the NULL stream is the legacy default stream, valid wherever a stream is.
DEFAULT_VARIANTS["Stream"] = HANDLE_VARIANTS[1:]


def enum_variants(enum):
    valid = enum.valid_values
    out = []
    for value, label in ((99, "99"), (ALL_ONES, "-1"), (0x7FFFFFFF, "0x7fffffff")):
        if (value if value != ALL_ONES else -1) not in valid:
            out.append(("Value", value, label))
    for name, value in enum.sentinels:
        if value not in (99, -1, 0x7FFFFFFF):
            out.append(("Value", value & ALL_ONES, "%s(%d)" % (name, value)))
    return out


def default_variants(p, enums):
    if p.role == "Enum":
        return enum_variants(enums[base_type(p.ctype)])
    variants = list(DEFAULT_VARIANTS.get(p.role, []))
    if p.role == "SharedBytes" and base_type(p.ctype) == "size_t":
        variants.append(("Value", ALL_ONES, "SIZE_MAX"))
    if p.role == "Flags" and base_type(p.ctype) not in WIDE_TYPES:
        variants = [("Value", 0xFFFFFFFF, "~0")]
    return variants


# --- Hints ------------------------------------------------------------------

VARIANT_BY_LABEL = {"null": "Null", "garbage": "Garbage", "destroyed": "Destroyed",
                    "wrong_kind": "WrongKind", "misaligned": "Misaligned"}


class Hint:
    def __init__(self, line_no, function, param, directive, reason):
        self.line_no = line_no
        self.function = function
        self.param = param
        self.directive = directive
        self.reason = reason
        self.used = False


def read_hints(path):
    hints = []
    with open(path, encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if cols[0] == "function":
                continue
            if len(cols) != 4 or not cols[3].strip():
                sys.exit("%s:%d: want 4 tab-separated columns with a reason" % (path, line_no))
            hints.append(Hint(line_no, *cols))
    return hints


def resolve_value(text, known):
    text = text.strip()
    if re.fullmatch(r"-?(0x[0-9a-fA-F]+|\d+)", text):
        return int(text, 0)
    if text in known:
        return known[text]
    raise ValueError("unknown value %r" % text)


def apply_hint(hint, fn, p, known, roles, path):
    where = "%s:%d" % (path, hint.line_no)
    key, _, arg = hint.directive.partition("=")
    if p is None:
        if key != "setup":
            sys.exit("%s: only setup= applies to a whole function" % where)
        fn.setup = arg
        return
    if key == "role":
        if arg not in roles:
            sys.exit("%s: unknown role %r" % (where, arg))
        p.role = arg
        p.variants = None  # recomputed
    elif key == "valid":
        p.valid = resolve_value(arg, known)
    elif key in ("legal", "ub"):
        labels = arg.split(",")
        for label in labels:
            before = len(p.variants)
            p.variants = [v for v in p.variants if v[2] != label]
            if len(p.variants) == before:
                sys.exit("%s: %s(%s) has no %r case to drop" % (where, fn.name, p.name, label))
            p.dropped.append((label, key, hint.reason))
    elif key == "bad":
        for label in arg.split(","):
            if label not in VARIANT_BY_LABEL:
                sys.exit("%s: unknown variant %r" % (where, label))
            if any(v[2] == label for v in p.variants):
                sys.exit("%s: %s(%s) already has %r" % (where, fn.name, p.name, label))
            p.variants.append((VARIANT_BY_LABEL[label], None, label))
    elif key == "values":
        for text in arg.split(","):
            value = resolve_value(text, known)
            p.variants.append(("Value", value & ALL_ONES, text.strip()))
    else:
        sys.exit("%s: unknown directive %r" % (where, hint.directive))


def build(functions, enums, known, hints, roles, hints_path):
    for fn in functions:
        devptrs = 0
        for p in fn.params:
            p.role = classify(fn, p, enums)
            if p.role == "DevPtr":
                devptrs += 1
                if devptrs == 2:
                    p.role = "DevPtrB"
            if p.role not in roles:
                sys.exit("%s: role %s is not in sweep_env.h" % (fn.name, p.role))
            if p.role == "Enum":
                p.valid = enums[base_type(p.ctype)].first_valid()[1]
        # Hints in file order; a role hint resets the variants before the
        # legal/ub/bad/values hints of the same parameter apply.
        for p in fn.params:
            p.variants = default_variants(p, enums)
        for hint in hints:
            if not fnmatch.fnmatchcase(fn.name, hint.function):
                continue
            if hint.param == "*":
                hint.used = True
                apply_hint(hint, fn, None, known, roles, hints_path)
                continue
            for p in fn.params:
                if p.name == hint.param:
                    hint.used = True
                    apply_hint(hint, fn, p, known, roles, hints_path)
                    if p.variants is None:
                        p.variants = default_variants(p, enums)
    unused = [h for h in hints if not h.used]
    if unused:
        for h in unused:
            print("%s:%d: hint matches no function parameter: %s %s" %
                  (hints_path, h.line_no, h.function, h.param), file=sys.stderr)
        sys.exit(1)


# --- Output -----------------------------------------------------------------


def cxx_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def is_enum_value(p, enums):
    """An enumeration passed by value (a pointer to one is memory, not an enum argument)."""
    t = base_type(p.ctype)
    return not t.endswith("*") and t in enums


def c_call_name(fn):
    return "CCall_" + fn.name


def c_param_type(p, enums):
    return "int" if is_enum_value(p, enums) else p.ctype


def c_signature(fn, enums):
    params = ", ".join("%s a%d" % (c_param_type(p, enums), p.index) for p in fn.params)
    return "%s %s(%s)" % (fn.result_type, c_call_name(fn), params or "void")


def write_if_changed(out, text):
    try:
        with open(out, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)


def emit_c(functions, enums, hip_headers, out):
    lines = [
        "/* Generated by apps/streamhal-sweep/gen_sweep_cases.py from cuda.h and",
        " * the HIP headers (hip/). Do not edit.",
        " *",
        " * The entry points with enumeration parameters, called as C programs call",
        " * them: the enumeration arguments arrive as ints, which C converts to the",
        " * parameter's enum type keeping their value, in range or not. */",
        "#include <cuda.h>",
    ] + ["#include <hip/%s>" % name for name in hip_headers] + [
        "",
    ]
    seen = set()
    for fn in functions:
        for p in fn.params:
            t = base_type(p.ctype)
            if is_enum_value(p, enums) and t not in seen:
                seen.add(t)
                lines.append('_Static_assert(sizeof(%s) == sizeof(int), "%s is passed as an int");' %
                             (t, t))
    lines.append("")
    for fn in functions:
        if not any(is_enum_value(p, enums) for p in fn.params):
            continue
        lines.append("%s {" % c_signature(fn, enums))
        lines.append("  return %s(%s);" % (fn.name, ", ".join("a%d" % p.index for p in fn.params)))
        lines.append("}")
    write_if_changed(out, "\n".join(lines) + "\n")


def emit(functions, enums, hip_headers, out):
    lines = [
        "// Generated by apps/streamhal-sweep/gen_sweep_cases.py from cuda.h,",
        "// the hip/*.h headers and sweep_hints.tsv. Do not edit.",
        "#include <cuda.h>",
    ] + ["#include <hip/%s>" % name for name in hip_headers] + [
        "",
        "#include <cstdint>",
        "#include <vector>",
        "",
        '#include "sweep_env.h"',
        "",
    ]
    # The C callers (sweep_c_calls.c) of functions with enumeration parameters.
    lines.append('extern "C" {')
    for fn in functions:
        if any(is_enum_value(p, enums) for p in fn.params):
            lines.append("%s;" % c_signature(fn, enums))
    lines.append('}  // extern "C"')
    lines.extend(["", "namespace streamhal::sweep {", "namespace {", ""])
    for i, fn in enumerate(functions):
        via_c = any(is_enum_value(p, enums) for p in fn.params)
        lines.append("int Call%d(Env& env) {  // %s" % (i, fn.name))
        for p in fn.params:
            lines.append("  %s a%d{};" % (c_param_type(p, enums), p.index))
        if fn.params:
            lines.append("  for (int pass = 0; pass < 2; ++pass) {")
            for p in fn.params:
                valid = "" if p.valid is None else ", %dull" % (p.valid & ALL_ONES)
                lines.append("    if (env.InPass(%d, pass)) a%d = env.Arg<%s>(%d, Role::k%s%s);" %
                             (p.index, p.index, c_param_type(p, enums), p.index, p.role, valid))
            lines.append("  }")
        lines.append("  if (!env.ready()) return Env::kNotRun;")
        lines.append("  return static_cast<int>(%s(%s));" %
                     (c_call_name(fn) if via_c else fn.name,
                      ", ".join("a%d" % p.index for p in fn.params)))
        lines.append("}")
        lines.append("")
    lines.append("}  // namespace")
    lines.append("")
    lines.append("const std::vector<FunctionSpec>& Functions() {")
    lines.append("  static const std::vector<FunctionSpec> functions = {")
    for i, fn in enumerate(functions):
        lines.append("      {%s, Api::k%s, &Call%d, %s}," %
                     (cxx_string(fn.name), "Cuda" if fn.api == "cuda" else "Hip", i,
                      cxx_string(fn.setup)))
    lines.append("  };")
    lines.append("  return functions;")
    lines.append("}")
    lines.append("")
    lines.append("const std::vector<CaseSpec>& Cases() {")
    lines.append("  static const std::vector<CaseSpec> cases = {")
    for i, fn in enumerate(functions):
        lines.append("      {%d, -1, Variant::kValid, 0, %s}," % (i, cxx_string("valid")))
        for p in fn.params:
            for variant, value, label in p.variants:
                lines.append("      {%d, %d, Variant::k%s, %dull, %s}," %
                             (i, p.index, variant, (value or 0) & ALL_ONES,
                              cxx_string("%s=%s" % (p.name, label))))
    lines.append("  };")
    lines.append("  return cases;")
    lines.append("}")
    lines.append("")
    lines.append("}  // namespace streamhal::sweep")
    write_if_changed(out, "\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cuda-header", required=True, action="append",
                        help="a header of the CUDA binding (repeat for each)")
    parser.add_argument("--hip-header", required=True, action="append",
                        help="a header of the HIP binding (repeat for each)")
    parser.add_argument("--env-header", required=True)
    parser.add_argument("--hints", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--c-output", required=True,
                        help="the C callers of functions with enumeration parameters")
    parser.add_argument("--summary", action="store_true",
                        help="print each function's parameters, roles and cases")
    args = parser.parse_args()

    with open(args.env_header, encoding="utf-8") as f:
        env_text = f.read()
    roles = set(parse_env_enum(env_text, "Role"))
    variants = set(parse_env_enum(env_text, "Variant"))
    for vs in DEFAULT_VARIANTS.values():
        for v in vs:
            assert v[0] in variants, v

    functions, enums, known = [], {}, {}
    for paths, api, result in ((args.cuda_header, "cuda", "CUresult"),
                               (args.hip_header, "hip", "hipError_t")):
        # A function declared in two headers (or a header given twice) is swept once.
        seen = set()
        for path in paths:
            with open(path, encoding="utf-8") as f:
                raw = f.read()
            # Namespace blocks hold C++ functions (hip_impl::hip_init), not C
            # entry points the C callers could reach.
            text = re.sub(r"\bnamespace\s+\w+\s*\{[^{}]*\}", " ", strip_comments(raw))
            known.update(numeric_defines(text))
            text = strip_preprocessor(text)
            enums.update(parse_enums(text, known))
            for fn in parse_functions(text, api, result):
                if fn.name not in seen:
                    seen.add(fn.name)
                    functions.append(fn)
    if not functions:
        sys.exit("no functions found")
    hints = read_hints(args.hints)
    build(functions, enums, known, hints, roles, args.hints)
    hip_headers = sorted({os.path.basename(path) for path in args.hip_header})
    emit(functions, enums, hip_headers, args.output)
    emit_c(functions, enums, hip_headers, args.c_output)
    if args.summary:
        total = {"cuda": 0, "hip": 0}
        for fn in functions:
            n = sum(len(p.variants) for p in fn.params)
            total[fn.api] += n + 1
            print("%s (%d cases)%s" % (fn.name, n, " setup=" + fn.setup if fn.setup else ""))
            for p in fn.params:
                print("  %-28s %-16s %s%s" % (p.ctype + " " + p.name, p.role,
                                             ", ".join(v[2] for v in p.variants),
                                             "".join("  [%s %s]" % (k, l) for l, k, _ in p.dropped)))
        print("cases (with one baseline per function): cuda %d, hip %d" %
              (total["cuda"], total["hip"]))


if __name__ == "__main__":
    main()
