#!/usr/bin/env python3
"""Check that README.md, CHANGELOG.md and every Markdown file under docs/
point at things that exist.

- Every link [text](target) with a relative target names a file or folder
  of the tree, and a #fragment names a heading of the file it points at
  (GitHub's anchors: lower case, punctuation dropped, spaces to '-').
- Every repository path written in the text or in `code` whose first part
  is a top-level folder of the tree (engine/search.c, tests/mpi/, ...)
  exists; a path of the layout before issue 27 (src/, play/, tune/, mpi/,
  api/, games/ at the top) is always an error. Paths with a placeholder
  (<game>, *, {a,b}, $X, ...) are not checked.

Usage: python3 scripts/check-links.py [REPO_ROOT] [FILE.md ...]
Exit status 0 when every link and path resolves, 1 with one line per
finding otherwise. Only the standard library; no network (http links are
not followed)."""
import os
import re
import subprocess
import sys

OLD_TOPS = {"src", "play", "tune", "mpi", "api", "games"}
SKIP_TOPS = {"build", "build-mpi", "build-fuzz", "build-asan", "build-bench", "build-rel", "logs", ".git"}
PLACEHOLDER = re.compile(r"[<>*{}$\[\]…]|\.\.\.")
LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
FENCE = re.compile(r"^\s*(```|~~~)")


def slug(heading):
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text, flags=re.U)  # punctuation, backticks, ...
    return text.replace(" ", "-")


def strip_fences(lines):
    """The lines outside fenced code blocks (fenced ones become '')."""
    out, fenced = [], False
    for line in lines:
        if FENCE.match(line):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else line)
    return out


_anchor_cache = {}


def anchors(path):
    """The anchors of a Markdown file's headings (and explicit <a id=...>)."""
    if path in _anchor_cache:
        return _anchor_cache[path]
    with open(path, encoding="utf-8") as f:
        lines = strip_fences(f.read().split("\n"))
    seen, result = {}, set()
    for line in lines:
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            result.add(base if n == 0 else f"{base}-{n}")
        for a in re.finditer(r"<a\s+(?:id|name)=\"([^\"]+)\"", line):
            result.add(a.group(1))
    _anchor_cache[path] = result
    return result


def tops(root):
    """The top-level folders the tree tracks (git), or that exist."""
    try:
        files = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True).stdout
        names = {f.split("/", 1)[0] for f in files.splitlines() if "/" in f}
    except (OSError, subprocess.CalledProcessError):
        names = {d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))}
    return names - SKIP_TOPS


def check_file(root, md, top_names, findings):
    rel_md = os.path.relpath(md, root)
    with open(md, encoding="utf-8") as f:
        lines = strip_fences(f.read().split("\n"))
    path_re = re.compile(
        r"(?<![\w./~-])((?:%s)/[\w./<>*{},$+-]*)" % "|".join(sorted(map(re.escape, top_names | OLD_TOPS))))
    for ln, line in enumerate(lines, 1):
        for m in LINK.finditer(line):
            target = m.group(2)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            path, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
            if not os.path.exists(dest):
                findings.append(f"{rel_md}:{ln}: link to '{target}': no such file")
                continue
            if frag and dest.endswith(".md") and frag not in anchors(dest):
                findings.append(f"{rel_md}:{ln}: link to '{target}': no heading '#{frag}' in {os.path.relpath(dest, root)}")
        text = LINK.sub(lambda m: m.group(1), line)  # link targets checked above
        for m in path_re.finditer(text):
            p = m.group(1).rstrip(".,;:)")
            top = p.split("/", 1)[0]
            in_code = any(c.start() < m.start() < c.end() for c in CODE_SPAN.finditer(text))
            if top in OLD_TOPS and top not in top_names:
                if top == "games" and not in_code:
                    continue  # "games/s" is a rate
                findings.append(f"{rel_md}:{ln}: '{p}': a path of the layout before issue 27 (see docs/architecture.md)")
                continue
            if PLACEHOLDER.search(p):
                continue
            if not os.path.exists(os.path.join(root, p)):
                findings.append(f"{rel_md}:{ln}: '{p}': no such file or folder in the tree")


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    files = [os.path.abspath(f) for f in argv[2:]]
    if not files:
        files += [os.path.join(root, "README.md"), os.path.join(root, "CHANGELOG.md")]
        for d, _, names in os.walk(os.path.join(root, "docs")):
            files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".md")]
    top_names = tops(root)
    findings = []
    for md in sorted(files):
        check_file(root, md, top_names, findings)
    for f in findings:
        print(f)
    if findings:
        print(f"check-links: {len(findings)} broken link(s) or path(s) in README.md, CHANGELOG.md and docs/", file=sys.stderr)
        return 1
    print(f"check-links: {len(files)} files, every link and path resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
