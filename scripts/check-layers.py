#!/usr/bin/env python3
"""check-layers.py — the include graph against docs/architecture.md.

Reads the `layers` block of docs/architecture.md (one line per top-level
folder: "folder: the folders it may include"), then every #include "..."
of the C sources under those folders, and fails (exit 1, one line per
finding) on:
  - an include of a folder that the including folder may not include;
  - a cycle between folders (whole paths: engine/games/russian and
    engine/games/draughts are two folders);
  - a game's name (russian, turkish, shatra, brazilian, pool, english, international,
    czech, italian, spanish; any case) in C code outside
    engine/games/ (comments are not code).
tests/, fuzz/ and examples/ are clients and may include anything.
Usage: python3 scripts/check-layers.py [REPO]   (default: this checkout)
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
GAME_WORDS = re.compile(r"russian|turkish|shatra|brazilian|english|czech|italian|spanish|\bpool\b|\binternational\b", re.I)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layers():
    text = open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8").read()
    m = re.search(r"```layers\n(.*?)```", text, re.S)
    if not m:
        sys.exit("check-layers: docs/architecture.md has no ```layers block")
    allowed = {}
    for n, line in enumerate(m.group(1).splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" not in line:
            sys.exit(f"check-layers: docs/architecture.md layers line {n}: '{line}' is not 'folder: folders'")
        folder, deps = line.split(":", 1)
        allowed[folder.strip()] = set(deps.replace(",", " ").split())
    return allowed


def sources(top):
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for f in sorted(filenames):
            if f.endswith((".c", ".h", ".def")):
                yield os.path.relpath(os.path.join(dirpath, f), ROOT)


def strip_comments(code):
    # Comments out, string literals kept (a game's name in a string is code).
    out, i, n = [], 0, len(code)
    while i < n:
        if code.startswith("/*", i):
            j = code.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif code.startswith("//", i):
            j = code.find("\n", i)
            i = n if j < 0 else j
        elif code[i] in "\"'":
            q, j = code[i], i + 1
            while j < n and code[j] != q:
                j += 2 if code[j] == "\\" else 1
            out.append(code[i : j + 1])
            i = j + 1
        else:
            out.append(code[i])
            i += 1
    return "".join(out)


def main():
    allowed = layers()
    findings = []
    edges = {}  # folder -> {folder: example "file -> include"}
    for top in sorted(allowed):
        if not os.path.isdir(os.path.join(ROOT, top)):
            findings.append(f"{top}/: named in docs/architecture.md but not in the tree")
            continue
        for path in sources(top):
            code = open(os.path.join(ROOT, path), encoding="utf-8", errors="replace").read()
            src_dir = os.path.dirname(path)
            for inc in INCLUDE.findall(code):
                target = os.path.normpath(os.path.join(src_dir, inc))
                if not os.path.exists(os.path.join(ROOT, target)):
                    target = inc  # from the include root (the repository, or include/)
                if not os.path.exists(os.path.join(ROOT, target)):
                    if os.path.exists(os.path.join(ROOT, "include", inc)):
                        target = "include/" + inc
                    else:
                        continue  # generated (version.h, schema_sql.h)
                dst_top = target.split("/")[0]
                if dst_top != top and dst_top not in allowed[top]:
                    findings.append(f"{path}: includes {inc}, but {top}/ may include only: {' '.join(sorted(allowed[top])) or 'nothing'}")
                dst_dir = os.path.dirname(target)
                if dst_dir != src_dir:
                    edges.setdefault(src_dir, {}).setdefault(dst_dir, f"{path} -> {inc}")
            if not path.startswith("engine/games/") and path.endswith((".c", ".h")):
                for ln, line in enumerate(strip_comments(code).splitlines(), 1):
                    m = GAME_WORDS.search(line)
                    if m:
                        findings.append(f"{path}:{ln}: names the game '{m.group(0)}' outside engine/games/")
                        break
    # Cycles between folders (depth-first search, each reported once).
    state, stack = {}, []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(edges.get(v, {})):
            if state.get(w) == 1:
                cyc = stack[stack.index(w):] + [w]
                why = "; ".join(edges[a][b] for a, b in zip(cyc, cyc[1:]))
                findings.append(f"cycle between folders: {' -> '.join(cyc)} ({why})")
            elif w not in state:
                visit(w)
        stack.pop()
        state[v] = 2

    for v in sorted(edges):
        if v not in state:
            visit(v)
    for f in findings:
        print(f)
    print(f"check-layers: {len(findings)} finding(s) in {len(edges)} folders with includes", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
