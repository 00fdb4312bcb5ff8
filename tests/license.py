#!/usr/bin/env python3
"""license.py -- the tree carries the licence meson.build declares.

    python3 tests/license.py SOURCE_ROOT

meson.build declares `license : 'Apache-2.0'`; LICENSE must hold the
Apache License 2.0 verbatim (the text Debian ships as
/usr/share/common-licenses/Apache-2.0, from the Apache Software
Foundation: its SHA-256 is the one below), and README.md's Licence section
must name it and link LICENSE. Registered in tests/meson.build (suite
e2e; instant).
"""
import hashlib
import os
import re
import sys

APACHE_2_0_SHA256 = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30"


def main():
    if len(sys.argv) != 2:
        print("usage: license.py SOURCE_ROOT", file=sys.stderr)
        return 2
    root = sys.argv[1]
    problems = []
    with open(os.path.join(root, "meson.build"), encoding="utf-8") as f:
        m = re.search(r"license\s*:\s*'([^']*)'", f.read())
    if not m or m.group(1) != "Apache-2.0":
        problems.append("meson.build does not declare license : 'Apache-2.0' (found %s)"
                        % (m.group(1) if m else "none"))
    path = os.path.join(root, "LICENSE")
    try:
        with open(path, "rb") as f:
            text = f.read()
    except OSError as e:
        problems.append("no LICENSE file: %s" % e)
        text = None
    if text is not None:
        digest = hashlib.sha256(text).hexdigest()
        if digest != APACHE_2_0_SHA256:
            problems.append("LICENSE is not the Apache License 2.0 verbatim (SHA-256 %s, expected %s)"
                            % (digest, APACHE_2_0_SHA256))
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme.split("\n## Licence\n", 1)
    if len(section) != 2:
        problems.append("README.md has no '## Licence' section")
    else:
        body = section[1].split("\n## ", 1)[0]
        if "Apache License, Version 2.0" not in body or "(LICENSE)" not in body:
            problems.append("README.md's Licence section does not name the Apache License,"
                            " Version 2.0 and link LICENSE: %r" % body.strip())
    for p in problems:
        print("FAIL: " + p, file=sys.stderr)
    if problems:
        return 1
    print("ok: LICENSE is the Apache License 2.0, as meson.build declares and README.md says")
    return 0


if __name__ == "__main__":
    sys.exit(main())
