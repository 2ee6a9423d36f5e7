#!/usr/bin/python3
"""Delta tables against the same files read as plain Parquet (issue 46). The table: N data
files (default 10,000) of 100 rows each, written by one parquet_copy (partition_by on a
bucket number, so each file holds its own ids: file g holds ids 100g .. 100g+99), whose log
is a classic Parquet checkpoint of N - 100 adds (written by parquet_copy with Delta's
checkpoint schema) plus 100 JSON commits of one add each, with per-file stats (numRecords,
min, max, nullCount) everywhere; _last_checkpoint names the checkpoint. Measured side by
side with format=files (hive_partitioning=0) over the same directory, each the best of
--runs in a fresh connection, reported as ratios:

  open        CREATE VIRTUAL TABLE (Delta: listing _delta_log, reading the checkpoint and
              replaying the 100 commits; files: listing the directory and reading the first
              footer); also against reading the checkpoint alone as a parquet table
              (SELECT count("add") renders every add action, as the replay does)
  open_memory peak resident memory a fresh process adds opening the table once the
              extension is loaded (VmHWM, reset through /proc/self/clear_refs after loading)
  point_hit   SELECT ... WHERE id = <an id of one file> (Delta: the log's statistics keep
              one file, one opened; files: every footer read and pruned by its statistics)
  point_miss  SELECT ... WHERE id = <no file's> (Delta: none opened)
  full_scan   SELECT count(*), sum(id) over every file (no deletion vectors: what the
              deleted-rows piece costs when there is nothing to delete)
  count_star  SELECT count(*) (Delta: every file counted from the log's numRecords, none
              opened; files: every file opened)

usage: bench/lake_bench.py [--build build] [--files 10000] [--runs 3]
"""
import argparse
import json
import os
import pathlib
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
ROWS_PER_FILE = 100
COMMITS = 100


def connect(extension):
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(extension)
    return db


def make_table(extension, directory, files):
    """The table's data files (one parquet_copy) and its log: a checkpoint and COMMITS commits."""
    db = connect(extension)
    table = directory / "table"
    db.execute(f"SELECT parquet_copy('WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r "
               f"WHERE i < {files * ROWS_PER_FILE - 1}) SELECT i AS id, ''v'' || i AS v, i / {ROWS_PER_FILE} AS g "
               f"FROM r', ?, 'partition_by=g', 'schema=id INT64, v STRING, g INT64')", (str(table),))
    log = table / "_delta_log"
    log.mkdir()
    schema = json.dumps({"type": "struct", "fields": [
        {"name": "id", "type": "long", "nullable": True, "metadata": {}},
        {"name": "v", "type": "string", "nullable": True, "metadata": {}}]})
    protocol = {"minReaderVersion": 1, "minWriterVersion": 2}
    metadata = {"id": "bench", "format": {"provider": "parquet", "options": {}}, "schemaString": schema,
                "partitionColumns": [], "configuration": {}}

    def add(g):
        path = table / f"g={g}" / "part-0.parquet"
        lo = g * ROWS_PER_FILE
        stats = json.dumps({"numRecords": ROWS_PER_FILE, "minValues": {"id": lo, "v": f"v{lo}"},
                            "maxValues": {"id": lo + ROWS_PER_FILE - 1, "v": f"v{lo + ROWS_PER_FILE - 1}"},
                            "nullCount": {"id": 0, "v": 0}})
        return {"path": f"g={g}/part-0.parquet", "partitionValues": {}, "size": path.stat().st_size,
                "modificationTime": 1, "dataChange": True, "stats": stats}

    checkpoint_version = COMMITS
    in_checkpoint = max(0, files - COMMITS)
    db.execute("CREATE TABLE cp(\"add\" TEXT, metaData TEXT, protocol TEXT)")
    db.execute("INSERT INTO cp VALUES (NULL, NULL, ?)", (json.dumps(protocol),))
    db.execute("INSERT INTO cp VALUES (NULL, ?, NULL)", (json.dumps(metadata),))
    db.executemany("INSERT INTO cp VALUES (?, NULL, NULL)", ((json.dumps(add(g)),) for g in range(in_checkpoint)))
    checkpoint = log / f"{checkpoint_version:020d}.checkpoint.parquet"
    db.execute("SELECT parquet_copy('SELECT * FROM cp', ?, ?)", (str(checkpoint), (
        "schema=add STRUCT<path STRING, partitionValues MAP<STRING, STRING>, size INT64, modificationTime INT64, "
        "dataChange BOOLEAN, stats STRING>, metaData STRUCT<id STRING, format STRUCT<provider STRING, options "
        "MAP<STRING, STRING>>, schemaString STRING, partitionColumns LIST<STRING>, configuration MAP<STRING, STRING>>, "
        "protocol STRUCT<minReaderVersion INT32, minWriterVersion INT32>")))
    (log / "_last_checkpoint").write_text(json.dumps({"version": checkpoint_version, "size": in_checkpoint + 2}))
    for k in range(1, COMMITS + 1):
        g = in_checkpoint + k - 1
        lines = [json.dumps({"commitInfo": {"timestamp": 1700000000000 + k, "operation": "WRITE"}})]
        if g < files:
            lines.append(json.dumps({"add": add(g)}))
        (log / f"{checkpoint_version + k:020d}.json").write_text("\n".join(lines) + "\n")
    return table, checkpoint


def best(runs, fn):
    times = []
    result = None
    for _ in range(runs):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return min(times), result


def peak_memory_kb(extension, sql):
    """The peak resident memory (VmHWM, KiB) a fresh process adds running `sql` after it has
    loaded the extension: the peak is reset (/proc/self/clear_refs) once the extension is
    loaded, so that loading's own peak does not hide the statement's."""
    code = ("import sqlite3, sys\n"
            "def status(key):\n"
            "    for line in open('/proc/self/status'):\n"
            "        if line.startswith(key + ':'): return int(line.split()[1])\n"
            "db = sqlite3.connect(':memory:')\n"
            "db.enable_load_extension(True)\n"
            "db.load_extension(sys.argv[1])\n"
            "db.execute('SELECT 1').fetchall()\n"
            "with open('/proc/self/clear_refs', 'w') as f: f.write('5')\n"
            "before = status('VmRSS')\n"
            "db.execute(sys.argv[2]).fetchall()\n"
            "print(status('VmHWM') - before)\n")
    out = subprocess.run([sys.executable, "-c", code, extension, sql], check=True, capture_output=True, text=True)
    return int(out.stdout.strip())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    extension = str((ROOT / args.build / "parquet").resolve())
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="pq-lake-bench-"))
    try:
        started = time.perf_counter()
        table, checkpoint = make_table(extension, tmp, args.files)
        print(f"lake bench: table of {args.files} files written in {time.perf_counter() - started:.1f} s")
        sources = {"delta": f"'{table}', format=delta", "files": f"'{table}', format=files, hive_partitioning=0"}
        results = {}
        for fmt, source in sources.items():
            def open_table():
                db = connect(extension)
                db.execute(f"CREATE VIRTUAL TABLE t USING parquet({source})")
                return db
            results[f"open_{fmt}"], _ = best(args.runs, open_table)
            results[f"open_memory_{fmt}"] = min(
                peak_memory_kb(extension, f"CREATE VIRTUAL TABLE t USING parquet({source})") for _ in range(args.runs))

            def query(sql):
                def run():
                    db = connect(extension)
                    db.execute(f"CREATE VIRTUAL TABLE t USING parquet({source})")
                    db.execute("SELECT 1 FROM t WHERE filename = ''").fetchall()  # planning's listing done
                    began = time.perf_counter()
                    rows = db.execute(sql).fetchall()
                    elapsed = time.perf_counter() - began
                    stats = db.execute("SELECT files_opened FROM parquet_scan_stats('t')").fetchone()[0]
                    return elapsed, rows, stats
                times = [run() for _ in range(args.runs)]
                return min(t for t, _, _ in times), times[0][1], times[0][2]
            hit = (args.files // 2) * ROWS_PER_FILE + 7
            for name, sql in (("point_hit", f"SELECT id, v FROM t WHERE id = {hit}"),
                              ("point_miss", f"SELECT id, v FROM t WHERE id = {args.files * ROWS_PER_FILE + 5}"),
                              ("full_scan", "SELECT count(*), sum(id) FROM t"),
                              ("count_star", "SELECT count(*) FROM t")):
                results[f"{name}_{fmt}"], results[f"{name}_rows_{fmt}"], results[f"{name}_opened_{fmt}"] = query(sql)

        def read_checkpoint():
            db = connect(extension)
            db.execute(f"CREATE VIRTUAL TABLE c USING parquet('{checkpoint}')")
            return db.execute('SELECT count("add") FROM c').fetchone()
        results["checkpoint_read"], _ = best(args.runs, read_checkpoint)
        names = ("point_hit", "point_miss", "full_scan", "count_star")
        agree = all(results[f"{n}_rows_delta"] == results[f"{n}_rows_files"] for n in names)
        print(f"lake bench: {args.files} files ({args.files - COMMITS} in a checkpoint, {COMMITS} JSON commits), "
              f"best of {args.runs}; results agree: {agree}")
        for name in ("open",) + names:
            d, f = results[f"{name}_delta"], results[f"{name}_files"]
            opened = "" if name == "open" else (f"   files opened {results[f'{name}_opened_delta']} / "
                                                f"{results[f'{name}_opened_files']}")
            print(f"  {name:10s} delta {d * 1000:9.1f} ms   files {f * 1000:9.1f} ms   ratio delta/files {d / f:7.3f}{opened}")
        print(f"  open delta / checkpoint read alone ({results['checkpoint_read'] * 1000:.1f} ms): "
              f"{results['open_delta'] / results['checkpoint_read']:.2f}")
        md, mf = results["open_memory_delta"], results["open_memory_files"]
        print(f"  open peak memory (VmHWM above the resident memory once the extension is loaded): "
              f"delta {md / 1024:.1f} MB, files {mf / 1024:.1f} MB, ratio delta/files {md / max(mf, 1):.2f}")
        return 0 if agree else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
