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
- bucket: a filter on k (a column of the files, partitioned by bucket[100]): the Iceberg
  table skips manifests by their summaries and files by their bucket values; the files
  table reads every footer and prunes by row-group statistics;
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


BUCKETS = 100
KINDS = 100  # distinct data files: k = manifest number % KINDS


def write_table(db, table, manifests, per_manifest, rows):
    """The Parquet files and the metadata: MANIFESTS manifests of FILES_PER_MANIFEST files.
    Partition spec: identity on p (each file its own value; p is not in the files, which
    sit in data/p=N/ directories as Hive writes them) and bucket[BUCKETS] on k, a column of
    the files (every file of manifest m holds k = m % KINDS, so that a filter on k skips
    whole manifests by their partition summaries of the bucket). Only KINDS Parquet files
    are written (one per value of k); the others are hard links to them. The manifest
    entries are encoded once per kind and patched with each file's path and p."""
    data = table / "data"
    data.mkdir(parents=True)
    templates = []
    for k in range(min(KINDS, manifests)):
        template = table / ("template-%d.parquet" % k)
        db.execute("SELECT parquet_copy('WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < %d) "
                   "SELECT x, %d AS k FROM r', '%s')" % (rows, k, template))
        templates.append((str(template), template.stat().st_size))
    spec = [iceberg_writer.PartitionField("p", 999, "identity", "int", 1000),
            iceberg_writer.PartitionField("k_bucket", 2, "bucket[%d]" % BUCKETS, "int", 1001)]
    written = []
    data_dir = str(data)
    for m in range(manifests):
        template, size = templates[m % KINDS]
        bucket = iceberg_writer.transform_value("bucket[%d]" % BUCKETS, "long", m % KINDS)
        files = []
        for f in range(per_manifest):
            p = m * per_manifest + f
            directory = "%s/p=%d" % (data_dir, p)
            os.mkdir(directory)
            path = directory + "/part-0.parquet"
            os.link(template, path)
            files.append(iceberg_writer.File(path, rows, size, partition=(p, bucket)))
        written.append(iceberg_writer.Manifest(files))
    for template, _ in templates:
        os.unlink(template)
    iceberg_writer.write_table(table, written, [(1, "x", "long"), (2, "k", "long"), (999, "p", "int")], spec=spec)


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
        start = time.perf_counter()
        write_table(db, table, args.manifests, args.files_per_manifest, args.rows_per_file)
        files = args.manifests * args.files_per_manifest
        middle = files // 2
        results = {"manifests": args.manifests, "files": files, "write_s": time.perf_counter() - start}
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
        # A filter on k, pruned through bucket[BUCKETS](k): the manifests whose summary
        # leaves out k's bucket, then the files of the others by their bucket values (the
        # files table reads every footer and prunes by the row groups' statistics of k).
        bucketed = "SELECT count(*), sum(x) FROM %s WHERE k = 5"
        results["bucket_iceberg_s"], e = best(args.runs, lambda: db.execute(bucketed % iceberg).fetchall())
        stats = db.execute("SELECT manifests_pruned, files_pruned_by_manifest, files_pruned_by_lake_statistics, files_opened "
                           "FROM parquet_scan_stats('%s')" % iceberg).fetchone()
        (results["bucket_manifests_pruned"], results["bucket_files_pruned_by_manifest"],
         results["bucket_files_pruned_by_partition"], results["bucket_files_opened"]) = stats
        results["bucket_files_s"], g = best(args.runs, lambda: db.execute(bucketed % files_table).fetchall())
        if e != g:
            raise SystemExit("the Iceberg and files tables disagree on k = 5: %s %s" % (e, g))
        full = "SELECT count(*), sum(x) FROM %s"
        results["full_iceberg_s"], c = best(args.runs, lambda: db.execute(full % iceberg).fetchall())
        results["full_files_s"], d = best(args.runs, lambda: db.execute(full % files_table).fetchall())
        if a != b or c != d:
            raise SystemExit("the Iceberg and files tables disagree: %s %s %s %s" % (a, b, c, d))
        for what in ("plan", "one_file", "bucket", "full"):
            results[what + "_ratio"] = results[what + "_iceberg_s"] / results[what + "_files_s"]
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
