#!/usr/bin/env python3
"""browser_dom.py -- checks the HTML report as the browser built it.

    browser_dom.py DOM.html REPORT.json [--box SELECTOR]

DOM.html is what `chromium --dump-dom` printed for the page: the document
after the browser parsed it and ran its scripts. REPORT.json is the same
run's `--format json` report. Checks, each of which fails with a message
naming the scheme, figure and both values:

  - the summary table (table#summary) has one row (tr[data-scheme]) per
    run, in the JSON's order and with its scheme names;
  - it shows, for every run, at least the figures the issue asks the
    summary for (write and read max/mean, window max/mean, p99 latency,
    RPCs per read, splits, moves), each cell (td[data-figure]) agreeing
    with the JSON's figures within the precision it is printed with (a
    figure the JSON has as null must show no number; with samples the
    cell's first number is the median, the JSON's "spread"), and a verdict;
  - there is one panel (section.panel[data-scheme]) per run, same names;
  - there is a legend (.legend[data-scale]) for the server writes and the
    key writes scales.

With --box, also prints the bounding box the probe script stored on the
root element (data-box="x,y,w,h", CSS pixels) for the element the test
asked for; browser.sh uses it to cut the screenshot.

Exit status: 0 when every check passes, 1 when one fails, 2 on a usage
error. Standard library only (html.parser, json).
"""
import json
import re
import sys
from html.parser import HTMLParser

SUMMARY_FIGURES = ["write_max_mean", "read_max_mean", "write_window_max_mean",
                   "p99_latency_us", "rpcs_per_read", "splits", "moves"]


class Dom(HTMLParser):
    """Collects the summary table's rows, the panels, the legends and the
    root's data-box, with the text of each figure cell."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.in_summary = 0        # depth inside table#summary
        self.rows = []             # [(scheme, {figure: text}, verdict)]
        self.cell = None           # ('figure', name) or ('verdict',) while inside one
        self.text = []
        self.panels = []
        self.legends = []
        self.box = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html" and "data-box" in a:
            self.box = a["data-box"]
        if tag == "table" and a.get("id") == "summary":
            self.in_summary = 1
        elif tag == "table" and self.in_summary:
            self.in_summary += 1
        if self.in_summary and tag == "tr" and "data-scheme" in a:
            self.rows.append([a["data-scheme"], {}, None])
        if self.in_summary and tag == "td" and self.rows:
            classes = (a.get("class") or "").split()
            if "data-figure" in a:
                self.cell = ("figure", a["data-figure"])
                self.text = []
            elif "verdict" in classes:
                self.cell = ("verdict",)
                self.text = []
        if tag == "section" and "panel" in (a.get("class") or "").split() and "data-scheme" in a:
            self.panels.append(a["data-scheme"])
        if "legend" in (a.get("class") or "").split() and "data-scale" in a:
            self.legends.append(a["data-scale"])

    def handle_endtag(self, tag):
        if tag == "td" and self.cell:
            text = " ".join("".join(self.text).split())
            if self.cell[0] == "figure":
                self.rows[-1][1][self.cell[1]] = text
            else:
                self.rows[-1][2] = text
            self.cell = None
        if tag == "table" and self.in_summary:
            self.in_summary -= 1

    def handle_data(self, data):
        if self.cell:
            self.text.append(data)


NUMBER = re.compile(r"^(-?[0-9][0-9,]*(?:\.([0-9]+))?)(?:e([-+]?[0-9]+))?\s*(%|us|µs|ms|s|x)?")


def agrees(text, value, unit):
    """Whether a cell's text shows value (a JSON number, in the figure's
    unit) to the precision it is printed with. Returns (ok, why)."""
    m = NUMBER.match(text)
    if value is None:
        return (not re.search(r"[0-9]", text), "JSON has no value (null) but the cell shows a number")
    if not m:
        return (False, "the cell shows no number")
    shown = float(m.group(1).replace(",", ""))
    decimals = len(m.group(2) or "")
    exp = int(m.group(3) or 0)
    suffix = m.group(4) or ""
    scale = 1.0
    if suffix == "%":
        scale = 0.01
    elif suffix == "ms" and unit == "us":
        scale = 1e3
    elif suffix == "s" and unit == "us":
        scale = 1e6
    shown *= scale * 10.0 ** exp
    tol = 0.5 * 10.0 ** (-decimals) * scale * 10.0 ** exp * 1.0001 + 1e-12
    # Rounded to significant digits (e.g. 1.2e+03 printed as 1200): allow
    # half a unit of the last significant digit too.
    tol = max(tol, abs(value) * 0.005)
    return (abs(shown - value) <= tol, "the cell shows %r (%g), JSON has %r" % (text, shown, value))


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "--box"):
        print("usage: browser_dom.py DOM.html REPORT.json [--box]", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        dom = Dom()
        dom.feed(f.read())
    with open(argv[2], encoding="utf-8") as f:
        report = json.load(f)
    runs = report["runs"]
    names = [r["scheme"] for r in runs]
    failures = []
    rows = [r[0] for r in dom.rows]
    if rows != names:
        failures.append("summary rows %r, expected the runs %r" % (rows, names))
    checked = 0
    for scheme, cells, verdict in dom.rows:
        if scheme not in names:
            continue
        run = runs[names.index(scheme)]
        figures = run["figures"]
        spread = run.get("spread")
        for want in SUMMARY_FIGURES:
            if want not in cells:
                failures.append("%s: the summary has no %s cell" % (scheme, want))
        for name, text in cells.items():
            if name not in figures:
                failures.append("%s: summary cell %r is no figure of the JSON report" % (scheme, name))
                continue
            unit = "us" if name.endswith("_us") else ""
            value = spread[name]["median"] if spread else figures[name]
            ok, why = agrees(text, value, unit)
            checked += 1
            if not ok:
                failures.append("%s: %s: %s" % (scheme, name, why))
        if not verdict:
            failures.append("%s: the summary row has no verdict" % scheme)
    if dom.panels != names:
        failures.append("panels %r, expected one per run %r" % (dom.panels, names))
    for scale in ("server-writes", "key-writes"):
        if scale not in dom.legends:
            failures.append("no legend for the %s scale (legends: %r)" % (scale, dom.legends))
    for f in failures:
        print("browser_dom: FAIL: " + f)
    print("browser_dom: %d runs, %d summary cells checked against the JSON, %d panels, legends %s"
          % (len(names), checked, len(dom.panels), ",".join(sorted(set(dom.legends)))))
    if len(argv) == 4:
        if not dom.box:
            print("browser_dom: FAIL: the probe stored no data-box on the root element")
            return 1
        print("box " + dom.box)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
