#!/usr/bin/env python3
"""Checks behind the conformance ctest entries (standard library only).

  report       the report program exits 0 and its JSON covers every tracked row
  wrong-claim  a table with deliberately wrong claims makes the program fail
  status-doc   docs/status.md matches a fresh run
  symbols      every function the table or the headers name is defined in its
               binding's static library, and every declared one has a row
"""

import argparse
import csv
import difflib
import json
import os
import re
import subprocess
import sys
from typing import Dict, List, Optional, Set, Tuple

STATUSES = ("supported", "partial", "unsupported", "wont")
TABLE_HEADER = ["group", "cuda", "hip", "claimed", "reason", "tests"]


def fail(message: str) -> None:
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def read_tsv(path: str) -> List[Dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def make_parent(path: str) -> None:
    parent = os.path.dirname(os.path.abspath(path))
    os.makedirs(parent, exist_ok=True)


def run_program(command: List[str]) -> int:
    print("running:", " ".join(command), flush=True)
    return subprocess.run(command, check=False).returncode


def load_json(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        fail(f"cannot read the JSON report {path}: {error}")
    return {}


def row_key(cuda: Optional[str], hip: Optional[str]) -> Tuple[str, str]:
    return (cuda or "", hip or "")


def check_report(args: argparse.Namespace) -> None:
    make_parent(args.json)
    status = run_program([args.program, "--format=json", "--validation",
                          f"--output={args.json}"] + args.program_args)
    report = load_json(args.json)
    problems = []
    if status != 0:
        problems.append(f"the program exited with {status}, expected 0")
    for key in ("device", "totals", "rows"):
        if key not in report:
            problems.append(f'the report has no "{key}"')
    rows = report.get("rows", [])
    by_key = {}
    for row in rows:
        for field in ("group", "cuda", "hip", "claimed", "observed", "reason", "tests"):
            if field not in row:
                problems.append(f'row {row} has no "{field}"')
        key = row_key(row.get("cuda"), row.get("hip"))
        if key in by_key:
            problems.append(f"two rows for {key}")
        by_key[key] = row
        for field in ("claimed", "observed"):
            if row.get(field) not in STATUSES:
                problems.append(f"{key}: {field} is {row.get(field)!r}")
        if row.get("claimed") != "supported" and not row.get("reason"):
            problems.append(f"{key}: claimed {row.get('claimed')} without a reason")
        if not row.get("tests"):
            problems.append(f"{key}: no test proves this row")
        if row.get("claimed") != row.get("observed"):
            problems.append(f"{key}: claimed {row.get('claimed')}, observed {row.get('observed')}")
    tracked = read_tsv(args.rows)
    for tracked_row in tracked:
        key = row_key(tracked_row["cuda"], tracked_row["hip"])
        row = by_key.get(key)
        if row is None:
            problems.append(
                f"tracked row {key} (group {tracked_row['group']}) is not in the report")
        elif row.get("group") != tracked_row["group"]:
            problems.append(f"tracked row {key} is in group {row.get('group')!r}, "
                            f"expected {tracked_row['group']!r}")
    for problem in report.get("problems", []):
        problems.append(f"the run reports: {problem}")
    if problems:
        fail("\n  ".join(["the conformance report is not acceptable:"] + problems))
    totals = report["totals"]
    print(f"OK: {len(rows)} rows cover all {len(tracked)} tracked rows; "
          f"observed {totals['observed']}; {totals['contradictions']} contradictions")


def write_table(path: str, rows: List[Dict[str, str]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        f.write("\t".join(TABLE_HEADER) + "\n")
        for row in rows:
            f.write("\t".join(row[column] or "" for column in TABLE_HEADER) + "\n")


def check_wrong_claim(args: argparse.Namespace) -> None:
    rows = read_tsv(args.table)
    flipped = {}
    for wanted, new_claim, reason in (("supported", "unsupported", "deliberately wrong claim"),
                                      ("unsupported", "supported", "")):
        for row in rows:
            key = row_key(row["cuda"], row["hip"])
            if row["claimed"] == wanted and key not in flipped:
                row["claimed"], row["reason"] = new_claim, reason
                flipped[key] = new_claim
                break
        else:
            fail(f"the table has no {wanted} row to flip")
    os.makedirs(args.workdir, exist_ok=True)
    table = os.path.join(args.workdir, "wrong_claims.tsv")
    output = os.path.join(args.workdir, "wrong_claims.json")
    write_table(table, rows)
    status = run_program([args.program, f"--table={table}", "--format=json",
                          f"--output={output}"] + args.program_args)
    if status != 1:
        fail(f"with wrong claims {flipped} the program exited with {status}, expected 1")
    report = load_json(output)
    contradicted = {row_key(r["cuda"], r["hip"]) for r in report["rows"] if r["contradiction"]}
    missed = set(flipped) - contradicted
    if missed:
        fail(f"the wrong claims for {sorted(missed)} were not contradicted")
    others = contradicted - set(flipped)
    if others:
        # Not this test's business (streamhal_conformance_report checks the
        # real table), but worth seeing.
        print(f"note: {len(others)} other rows contradict their claims too")
    print(f"OK: the wrong claims {flipped} were contradicted and the program exited with 1")


def check_status_doc(args: argparse.Namespace) -> None:
    make_parent(args.output)
    status = run_program([args.program, f"--output={args.output}"] + args.program_args)
    if status not in (0, 1) or not os.path.exists(args.output):
        fail(f"the program exited with {status} and wrote no report")
    with open(args.output, encoding="utf-8") as f:
        fresh = f.read()
    try:
        with open(args.committed, encoding="utf-8") as f:
            committed = f.read()
    except OSError:
        committed = ""
    if fresh != committed:
        diff = difflib.unified_diff(committed.splitlines(), fresh.splitlines(),
                                    "docs/status.md (committed)", "docs/status.md (fresh run)",
                                    lineterm="")
        print("\n".join(list(diff)[:80]), file=sys.stderr)
        fail("docs/status.md is stale. Regenerate it with\n"
             f"    {args.regenerate}\nand commit the result.")
    note = ""
    if status != 0:
        note = " (the run contradicts the table: see streamhal_conformance_report)"
    print(f"OK: docs/status.md matches a fresh run{note}")


def declared_functions(header: str) -> Tuple[Set[str], Set[str]]:
    """Function names declared in a C header, and names it #defines."""
    with open(header, encoding="utf-8") as f:
        text = f.read()
    macros = set(re.findall(r"^\s*#\s*define\s+(\w+)", text, re.M))
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"^\s*#[^\n]*", "", text, flags=re.M)
    # Namespace blocks declare C++ functions (hip_impl::hip_init); a table
    # row names them qualified.
    text = re.sub(r"\bnamespace\s+\w+\s*\{[^{}]*\}", "", text)
    functions = set()
    # A declaration: a return type, the name, a parameter list, a semicolon.
    pattern = r"^[A-Za-z_][\w \*]*?[\s\*](\w+)\s*\([^;{)]*(?:\([^)]*\)[^;{)]*)*\)\s*;"
    for match in re.finditer(pattern, text, re.M):
        name = match.group(1)
        # A typedef of a function type (cudaVDPAU.h's VdpGetProcAddress)
        # declares a type, not a function.
        if match.group(0).startswith("typedef"):
            continue
        if name not in ("CUDAAPI",):
            functions.add(name)
    return functions, macros


def defined_symbols(nm: str, library: str) -> Set[str]:
    result = subprocess.run([nm, "-g", "--defined-only", library], check=True,
                            capture_output=True, text=True)
    symbols = set()
    for line in result.stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in ("T", "W"):
            symbols.add(fields[2])
    return symbols


def defined_cpp_functions(nm: str, library: str) -> Set[str]:
    """Qualified names (ns::f) of the C++ functions a library defines."""
    result = subprocess.run([nm, "-g", "--defined-only", "-C", library], check=True,
                            capture_output=True, text=True)
    names = set()
    for line in result.stdout.splitlines():
        fields = line.split(None, 2)
        if len(fields) == 3 and fields[1] in ("T", "W") and "::" in fields[2]:
            names.add(fields[2].split("(")[0])
    return names


def table_symbols(name: str) -> List[str]:
    """The identifiers a table name stands for: 'cuLaunchKernel (extra: ...)'
    names cuLaunchKernel, 'a / b' names a and b."""
    if not name:
        return []
    return [part.strip() for part in name.split(" (")[0].split(" / ") if part.strip()]


def check_symbols(args: argparse.Namespace) -> None:
    problems = []
    rows = read_tsv(args.table)
    for column, library, headers in (("cuda", args.cuda_lib, args.cuda_header),
                                     ("hip", args.hip_lib, args.hip_header)):
        declared: Set[str] = set()
        macros: Set[str] = set()
        declared_in: Dict[str, str] = {}
        for header in headers:
            functions, defines = declared_functions(header)
            for name in functions:
                declared_in.setdefault(name, os.path.basename(header))
            declared |= functions
            macros |= defines
        defined = defined_symbols(args.nm, library)
        cpp_defined = defined_cpp_functions(args.nm, library)
        library_name = os.path.basename(library)
        header_names = ", ".join(os.path.basename(header) for header in headers)
        if len(declared) < 10:
            problems.append(f"found only {len(declared)} declarations in {header_names}")
        for name in sorted(declared - defined):
            problems.append(f"{name} is declared in {declared_in[name]} but {library_name} does "
                            "not define it (add it to src/unsupported.cc until it is "
                            "implemented)")
        named = set()
        for row in rows:
            for symbol in table_symbols(row[column]):
                named.add(symbol)
                if symbol in macros:
                    continue  # a constant such as CU_STREAM_PER_THREAD
                if re.fullmatch(r"\w+(::\w+)+", symbol):
                    if symbol not in cpp_defined:
                        problems.append(f"table row {row[column]!r}: {library_name} does not "
                                        f"define the C++ function {symbol}")
                elif not re.fullmatch(r"\w+", symbol):
                    problems.append(f"table name {row[column]!r} is not an identifier")
                elif symbol not in defined:
                    problems.append(f"table row {row[column]!r}: {library_name} does not "
                                    f"export {symbol}")
        for name in sorted(declared - named):
            problems.append(f"{name} is declared in {declared_in[name]} but no row of the table "
                            "names it (add a row to conformance/table.tsv)")
    if problems:
        fail("\n  ".join(["symbol check:"] + problems))
    print("OK: every function named by the table or declared in the headers is defined")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)

    report = commands.add_parser("report")
    report.add_argument("--program", required=True)
    report.add_argument("--rows", required=True, help="TSV with group, cuda, hip columns")
    report.add_argument("--json", required=True, help="where the report is written")
    report.set_defaults(run=check_report)

    wrong = commands.add_parser("wrong-claim")
    wrong.add_argument("--program", required=True)
    wrong.add_argument("--table", required=True)
    wrong.add_argument("--workdir", required=True)
    wrong.set_defaults(run=check_wrong_claim)

    doc = commands.add_parser("status-doc")
    doc.add_argument("--program", required=True)
    doc.add_argument("--committed", required=True)
    doc.add_argument("--output", required=True)
    doc.add_argument("--regenerate", required=True, help="the command that regenerates it")
    doc.set_defaults(run=check_status_doc)

    symbols = commands.add_parser("symbols")
    symbols.add_argument("--nm", required=True)
    symbols.add_argument("--table", required=True)
    symbols.add_argument("--cuda-lib", required=True)
    symbols.add_argument("--cuda-header", required=True, action="append",
                         help="a public header of the binding (repeat for each)")
    symbols.add_argument("--hip-lib", required=True)
    symbols.add_argument("--hip-header", required=True, action="append",
                         help="a public header of the binding (repeat for each)")
    symbols.set_defaults(run=check_symbols)

    args, rest = parser.parse_known_args()
    # Arguments after "--" go to the report program.
    if rest and rest[0] == "--":
        rest = rest[1:]
    if rest and args.command == "symbols":
        parser.error(f"unexpected arguments {rest}")
    args.program_args = rest
    args.run(args)


if __name__ == "__main__":
    main()
