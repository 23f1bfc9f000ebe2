"""Checks that a benchmark's CSV is well-formed: a header, at least one row, every row with the
header's columns, and a number in every column whose name says it holds one.
Prints what is wrong and exits 1; used by perf/smoke. Usage: python3 well_formed_csv.py FILE"""
import csv
import re
import sys

# Words of a column's name (camelCase or snake_case) that promise a number: counts, rates, times, sizes.
NUMERIC_WORDS = {"nodes", "pairs", "devices", "agents", "writers", "records", "subscribers", "messages", "registrations",
                 "searchers", "searches", "chars", "trips", "ops", "rate", "ms", "us", "seconds", "sec", "bytes",
                 "count", "lost", "duplicated", "ratio", "median", "mean", "avg", "p50", "p90", "p95", "p99", "heap"}


def numeric(name):
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", name)
    return any(w.lower() in NUMERIC_WORDS or re.fullmatch(r"p\d+", w.lower()) for w in words)


def problems(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return ["empty"]
    header, data = rows[0], rows[1:]
    if not data:
        return ["a header and no rows"]
    found = []
    for n, row in enumerate(data, start=2):
        if len(row) != len(header):
            found.append(f"line {n}: {len(row)} fields where the header has {len(header)}")
            continue
        for name, value in zip(header, row):
            if numeric(name) and not is_number(value):
                found.append(f"line {n}: {name} is {value!r}, not a number")
    return found


def is_number(value):
    try:
        float(value)
        return True
    except ValueError:
        return False


if __name__ == "__main__":
    wrong = problems(sys.argv[1])
    for w in wrong:
        print(f"{sys.argv[1]}: {w}", file=sys.stderr)
    sys.exit(1 if wrong else 0)
