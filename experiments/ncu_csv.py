"""Reads an `ncu --csv` metrics listing (experiments' one home for it): each kernel launch's metrics in base
units, bytes for byte metrics and microseconds for durations; text metrics are left out. Both of ncu's
layouts: a row a metric (`--metrics`, `--page details`) and a row a launch (`--page raw`: a column a metric,
the units in the second row)."""
import collections
import csv

SCALE = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "ns": 1e-3, "nsecond": 1e-3, "us": 1, "usecond": 1,
         "ms": 1e3, "msecond": 1e3}


def _number(text, unit):
    try:
        return float(text.replace(",", "")) * SCALE.get(unit, 1)
    except ValueError:  # a text metric (names, modes, ...)
        return None


def launches(lines):
    """{(launch ID, kernel name): {metric name: value in bytes or µs}} from ncu's CSV lines (others skipped)."""
    rows = list(csv.reader(line for line in lines if line.startswith('"')))
    if not rows:
        return {}
    head, body = rows[0], rows[1:]
    out = collections.defaultdict(dict)
    if "Metric Name" not in head:  # --page raw: a launch a row, a metric a column, units in the first body row
        units, body = (body[0], body[1:]) if body else ([], [])
        at_id, at_name = head.index("ID"), head.index("Kernel Name")
        for r in body:
            m = out[(r[at_id], r[at_name])]
            for k, (name, text) in enumerate(zip(head, r)):
                value = _number(text, units[k] if k < len(units) else "")
                if value is not None and k not in (at_id, at_name):
                    m[name] = value
        return out
    at = {k: head.index(k) for k in ("ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value")}
    for r in body:
        value = _number(r[at["Metric Value"]], r[at["Metric Unit"]])
        if value is not None:
            out[(r[at["ID"]], r[at["Kernel Name"]])][r[at["Metric Name"]]] = value
    return out
