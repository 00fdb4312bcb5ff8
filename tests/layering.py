#!/usr/bin/env python3
"""The folder layout is the architecture: each folder includes only the
folders below it (docs/development.md, "Layout").

    core <- workloads <- scenario <- engine <- reports <- cli <- planners

cli/ and planners/ are the program. planners/ use cli/'s shared modules
(output, progress, interrupts, checks), and the program's entry, cli/main.c,
hands the many-scenario commands to planners/: it is the one file above
planners/. Tests, benchmarks and fuzz targets may include anything.

Usage: layering.py SOURCE_ROOT. Prints every include that runs up (FILE:LINE:
the include, and the layers) and exits 1 if there is one, else 0.
"""
import os
import re
import sys

ORDER = ["core", "workloads", "scenario", "engine", "reports", "cli", "planners"]
ENTRY = os.path.join("cli", "main.c")  # the top: may include planners/
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"')


def upward_includes(root):
    rank = {d: i for i, d in enumerate(ORDER)}
    found = []
    for folder in ORDER:
        for name in sorted(os.listdir(os.path.join(root, folder))):
            if not name.endswith((".c", ".h")):
                continue
            rel = os.path.join(folder, name)
            top = len(ORDER) if rel == ENTRY else rank[folder]
            with open(os.path.join(root, rel), encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if m and m.group(1) in rank and rank[m.group(1)] > top:
                        found.append(f"{rel}:{n}: {line.strip()}: {folder}/ is below "
                                     f"{m.group(1)}/")
    return found


def main():
    if len(sys.argv) != 2:
        print("usage: layering.py SOURCE_ROOT", file=sys.stderr)
        return 2
    root = sys.argv[1]
    missing = [d for d in ORDER if not os.path.isdir(os.path.join(root, d))]
    if missing:
        print(f"layering.py: {root}: no folder {', '.join(missing)}", file=sys.stderr)
        return 2
    found = upward_includes(root)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
