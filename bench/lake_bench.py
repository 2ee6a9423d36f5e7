#!/usr/bin/python3
"""Delta tables against the same files read as plain Parquet (issue 46): a table of N data
files (default 10,000, hard links of one 100-row file written by parquet_copy) whose log is
100 JSON commits of N/100 adds each, with per-file stats in the log, side by side with
format=files over the same directory. Each measurement is the best of --runs, in a fresh
connection, and is reported as a ratio delta/files:

  open        CREATE VIRTUAL TABLE (Delta: listing _delta_log and replaying the 100 commits;
              files: listing the directory and reading the first footer)
  full_scan   SELECT count(*), sum(id) over every file (no deletion vectors: what the
              deleted-rows piece costs when there is nothing to delete)
  point_miss  SELECT ... WHERE id = <a value no file holds> (Delta: every file skipped by
              the log's statistics, none opened; files: every footer read and pruned)

usage: bench/lake_bench.py [--build build] [--files 10000] [--runs 3]
"""
import argparse
import json
import os
import pathlib
import resource
import shutil
import sqlite3
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def connect(extension):
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(extension)
    return db


def make_table(extension, directory, files):
    db = connect(extension)
    base = directory / "base.parquet"
    db.execute("SELECT parquet_copy('WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 99) "
               "SELECT i AS id, ''v'' || i AS v FROM r', ?)", (str(base),))
    table = directory / "table"
    (table / "_delta_log").mkdir(parents=True)
    schema = json.dumps({"type": "struct", "fields": [
        {"name": "id", "type": "long", "nullable": True, "metadata": {}},
        {"name": "v", "type": "string", "nullable": True, "metadata": {}}]})
    stats = json.dumps({"numRecords": 100, "minValues": {"id": 0, "v": "v0"}, "maxValues": {"id": 99, "v": "v99"},
                        "nullCount": {"id": 0, "v": 0}})
    per_commit = max(1, files // 100)
    n = 0
    for version in range((files + per_commit - 1) // per_commit):
        lines = [json.dumps({"commitInfo": {"timestamp": 1700000000000 + version, "operation": "WRITE"}})]
        if version == 0:
            lines.append(json.dumps({"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}}))
            lines.append(json.dumps({"metaData": {"id": "bench", "format": {"provider": "parquet", "options": {}},
                                                  "schemaString": schema, "partitionColumns": [], "configuration": {}}}))
        for _ in range(per_commit):
            if n == files:
                break
            name = f"part-{n:05d}.parquet"
            os.link(base, table / name)
            lines.append(json.dumps({"add": {"path": name, "partitionValues": {}, "size": base.stat().st_size,
                                             "modificationTime": 1, "dataChange": True, "stats": stats}}))
            n += 1
        (table / "_delta_log" / f"{version:020d}.json").write_text("\n".join(lines) + "\n")
    return table


def best(runs, fn):
    times = []
    result = None
    for _ in range(runs):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return min(times), result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    extension = str((ROOT / args.build / "parquet").resolve())
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="pq-lake-bench-"))
    try:
        table = make_table(extension, tmp, args.files)
        results = {"files": args.files}
        for fmt in ("delta", "files"):
            def open_table():
                db = connect(extension)
                db.execute(f"CREATE VIRTUAL TABLE t USING parquet('{table}', format={fmt})")
                return db
            seconds, _ = best(args.runs, open_table)
            results[f"open_{fmt}"] = seconds

            def query(sql):
                def run():
                    db = connect(extension)
                    db.execute(f"CREATE VIRTUAL TABLE t USING parquet('{table}', format={fmt})")
                    db.execute("SELECT 1 FROM t WHERE filename = ''").fetchall()  # planning's listing done
                    started = time.perf_counter()
                    rows = db.execute(sql).fetchall()
                    return time.perf_counter() - started, rows
                times = [run() for _ in range(args.runs)]
                return min(t for t, _ in times), times[0][1]
            results[f"full_scan_{fmt}"], results[f"full_scan_rows_{fmt}"] = query("SELECT count(*), sum(id) FROM t")
            results[f"point_miss_{fmt}"], results[f"point_miss_rows_{fmt}"] = query("SELECT id, v FROM t WHERE id = 1000000")
        results["max_rss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        agree = (results["full_scan_rows_delta"] == results["full_scan_rows_files"]
                 and results["point_miss_rows_delta"] == results["point_miss_rows_files"])
        print(f"lake bench: {args.files} files, best of {args.runs}; results agree: {agree}")
        for name in ("open", "full_scan", "point_miss"):
            d, f = results[f"{name}_delta"], results[f"{name}_files"]
            print(f"  {name:10s} delta {d * 1000:9.1f} ms   files {f * 1000:9.1f} ms   ratio delta/files {d / f:6.2f}")
        return 0 if agree else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
