"""Reads an `ncu --csv` metrics listing (experiments' one home for it): each kernel launch's metrics in base
units, bytes for byte metrics and microseconds for durations."""
import collections
import csv

SCALE = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "ns": 1e-3, "nsecond": 1e-3, "us": 1, "usecond": 1,
         "ms": 1e3, "msecond": 1e3}


def launches(lines):
    """{(launch ID, kernel name): {metric name: value in bytes or µs}} from ncu's CSV lines (others skipped)."""
    rows = list(csv.reader(line for line in lines if line.startswith('"')))
    if not rows:
        return {}
    head, body = rows[0], rows[1:]
    at = {k: head.index(k) for k in ("ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value")}
    out = collections.defaultdict(dict)
    for r in body:
        value = float(r[at["Metric Value"]].replace(",", "")) * SCALE.get(r[at["Metric Unit"]], 1)
        out[(r[at["ID"]], r[at["Kernel Name"]])][r[at["Metric Name"]]] = value
    return out
