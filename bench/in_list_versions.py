"""Times `IN` of 100 keys on one parquet file under several SQLite versions (docs: README,
"SQLite versions"): below 3.38 SQLite hands the table one value per xFilter, from 3.38 the
whole list at once (sqlite3_vtab_in). Writes a file of ROWS rows with parquet_copy, then runs
each version's sqlite3 shell (VERSIONS_DIR/VERSION/sqlite3 of scripts/setup_sqlite_versions.sh;
"system" is the system's) with `.timer on`: the first query of a new connection and the median
of RUNS more, on the sorted column id and on k, a permutation of it. Fails when two versions
give different results. (Debian 12's python3 cannot load a SQLite older than 3.36.)

Usage: python3 bench/in_list_versions.py EXTENSION VERSIONS_DIR [--rows N] [--runs N]
           [--versions 3.34.1,system]"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

QUERIES = {
    "id (sorted)": "SELECT count(*), sum(v) FROM t WHERE id IN ({keys})",
    "k (unsorted)": "SELECT count(*), sum(v) FROM t WHERE k IN ({keys})",
}


def keys(rows):
    step = rows // 100
    return ", ".join(str(i * step + 7) for i in range(100))


def measure(shell, extension, path, rows, runs):
    """Runs every query 1 + RUNS times in one shell connection each: {name: (result, first ms,
    median ms, plan)}, and the shell's SQLite version."""
    report = {}
    for name, template in QUERIES.items():
        sql = template.format(keys=keys(rows))
        script = (f".load {extension}\nCREATE VIRTUAL TABLE t USING parquet('{path}');\n"
                  f"EXPLAIN QUERY PLAN {sql};\n.timer on\n" + f"{sql};\n" * (1 + runs))
        done = subprocess.run([shell, "-batch", "-bail", ":memory:"], input=script, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{shell}: {done.stderr.strip()}")
        lines = done.stdout.splitlines()
        times = [float(m.group(1)) * 1000 for m in (re.match(r"Run Time: real ([0-9.]+)", line) for line in lines) if m]
        results = {line for line in lines if re.match(r"^[0-9]+\|[0-9]+$", line)}
        plan = next(line for line in lines if "VIRTUAL TABLE" in line).strip("`-| ")
        if len(results) != 1 or len(times) != 1 + runs:
            sys.exit(f"{shell}: unexpected output {done.stdout!r}")
        report[name] = (results.pop(), times[0], statistics.median(times[1:]), plan)
    version = subprocess.run([shell, ":memory:", "SELECT sqlite_version()"], capture_output=True, text=True).stdout
    return version.strip(), report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("extension")
    parser.add_argument("versions_dir")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--versions", default="3.34.1,system")
    args = parser.parse_args()
    extension = os.path.abspath(args.extension)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "in.parquet")
        copy = (f".load {extension}\nSELECT parquet_copy('WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 "
                f"FROM c WHERE x < {args.rows - 1}) SELECT x AS id, (x * 7919) % {args.rows} AS k, x * 3 AS v FROM c', "
                f"'{path}', 'sorting_columns=id');\n")
        subprocess.run([shutil.which("sqlite3"), "-batch", "-bail", ":memory:"], input=copy, text=True, check=True,
                       capture_output=True)
        reference = None
        print(f"IN of 100 keys, {args.rows} rows: first query of a connection, then the median of {args.runs} more")
        for version in args.versions.split(","):
            shell = shutil.which("sqlite3") if version == "system" else os.path.join(args.versions_dir, version, "sqlite3")
            running, report = measure(shell, extension, path, args.rows, args.runs)
            for name, (result, first, median, plan) in report.items():
                print(f"  SQLite {running:7} {name:13} first {first:8.1f} ms  then {median:8.1f} ms  "
                      f"count|sum {result}  plan {plan}")
            answers = {name: q[0] for name, q in report.items()}
            if reference is not None and answers != reference:
                sys.exit(f"different results: {answers} and {reference}")
            reference = answers


if __name__ == "__main__":
    main()
