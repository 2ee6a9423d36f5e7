#!/usr/bin/python3
"""Iceberg planning and scans (issue 47): a synthetic Iceberg v2 table written by this
project's own writer of Iceberg metadata (tests/lake/iceberg_writer.py: metadata.json, an
Avro manifest list with partition summaries, Avro manifests; codec null) over Parquet files written by parquet_copy: MANIFESTS manifests of
FILES_PER_MANIFEST files each, identity-partitioned on p (one value per file, the column
not in the files, in data/p=N/ directories as Hive writes them).

Measured side by side, each the best of --runs:
- planning: CREATE VIRTUAL TABLE of the Iceberg table (metadata, manifest list, every
  manifest) against CREATE VIRTUAL TABLE with format=files over the same directory (the
  listing of every file);
- one file: a query whose partition filter keeps one file, on both tables (the Iceberg
  table skips the other manifests by their partition summaries: manifests_pruned);
- full scan: count(*) and sum(x) over every row, on both tables.
Prints the times and the ratios Iceberg / files (below 1: Iceberg faster).

usage: bench/iceberg_bench.py [--build build] [--manifests 1000] [--files-per-manifest 100]
                              [--rows-per-file 10] [--runs 3] [--dir DIR]
"""
import argparse
import json
import os
import pathlib
import sqlite3
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


sys.path.insert(0, str(ROOT / "tests" / "lake"))
import iceberg_writer  # noqa: E402  (tests/lake/iceberg_writer.py: our writer of Iceberg metadata)


def write_table(db, table, manifests, per_manifest, rows):
    """The Parquet files (one written, the others hard links to it: the same rows) and the
    metadata: MANIFESTS manifests of FILES_PER_MANIFEST files, each file its own value of p,
    the manifest list with each manifest's partition summary of p."""
    data = table / "data"
    data.mkdir(parents=True)
    template = table / "template.parquet"
    db.execute("SELECT parquet_copy('WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < %d) "
               "SELECT x FROM r', '%s')" % (rows, template))
    size = template.stat().st_size
    written = []
    for m in range(manifests):
        files = []
        for f in range(per_manifest):
            p = m * per_manifest + f
            directory = data / ("p=%d" % p)
            directory.mkdir()
            path = directory / "part-0.parquet"
            os.link(template, path)
            files.append(iceberg_writer.File(path, rows, size, p=p))
        written.append(iceberg_writer.Manifest(files))
    template.unlink()
    iceberg_writer.write_table(table, written, [(1, "x", "long")])


def best(runs, fn):
    times = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--manifests", type=int, default=1000)
    parser.add_argument("--files-per-manifest", type=int, default=100)
    parser.add_argument("--rows-per-file", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()
    extension = os.path.join(args.build, "parquet")

    def connect():
        db = sqlite3.connect(":memory:")
        db.enable_load_extension(True)
        db.load_extension(extension)
        return db

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        table = pathlib.Path(tmp) / "t"
        db = connect()
        write_table(db, table, args.manifests, args.files_per_manifest, args.rows_per_file)
        files = args.manifests * args.files_per_manifest
        middle = files // 2
        results = {"manifests": args.manifests, "files": files}
        counter = [0]

        def create(options):
            counter[0] += 1
            name = "t%d" % counter[0]
            db.execute("CREATE VIRTUAL TABLE %s USING parquet('%s'%s)" % (name, table, options))
            return name

        results["plan_iceberg_s"], iceberg = best(args.runs, lambda: create(""))
        results["plan_files_s"], files_table = best(args.runs, lambda: create(", format=files, hive_partitioning=1"))
        one = "SELECT count(*), sum(x) FROM %s WHERE p = " + str(middle)
        results["one_file_iceberg_s"], a = best(args.runs, lambda: db.execute(one % iceberg).fetchall())
        stats = db.execute("SELECT manifests_total, manifests_pruned, files_opened FROM parquet_scan_stats('%s')"
                           % iceberg).fetchone()
        results["one_file_manifests_total"], results["one_file_manifests_pruned"], results["one_file_files_opened"] = stats
        results["one_file_files_s"], b = best(args.runs, lambda: db.execute(one % files_table).fetchall())
        full = "SELECT count(*), sum(x) FROM %s"
        results["full_iceberg_s"], c = best(args.runs, lambda: db.execute(full % iceberg).fetchall())
        results["full_files_s"], d = best(args.runs, lambda: db.execute(full % files_table).fetchall())
        if a != b or c != d:
            raise SystemExit("the Iceberg and files tables disagree: %s %s %s %s" % (a, b, c, d))
        for what in ("plan", "one_file", "full"):
            results[what + "_ratio"] = results[what + "_iceberg_s"] / results[what + "_files_s"]
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
