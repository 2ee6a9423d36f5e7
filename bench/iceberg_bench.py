#!/usr/bin/python3
"""Iceberg planning and scans (issue 47): a synthetic Iceberg v2 table written by this
script's own writer of Iceberg metadata (metadata.json, an Avro manifest list, Avro
manifests; codec null) over Parquet files written by parquet_copy: MANIFESTS manifests of
FILES_PER_MANIFEST files each, identity-partitioned on p (one value per file, the column
not in the files, in data/p=N/ directories as Hive writes them).

Measured side by side, each the best of --runs:
- planning: CREATE VIRTUAL TABLE of the Iceberg table (metadata, manifest list, every
  manifest) against CREATE VIRTUAL TABLE with format=files over the same directory (the
  listing of every file);
- one file: a query whose partition filter keeps one file, on both tables;
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
import struct
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def zigzag(n):
    n = (n << 1) ^ (n >> 63)
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def avro_bytes(b):
    return zigzag(len(b)) + b


def avro_string(s):
    return avro_bytes(s.encode())


def container(schema, records):
    sync = b"0123456789abcdef"
    out = bytearray(b"Obj\x01")
    meta = {"avro.schema": json.dumps(schema).encode(), "avro.codec": b"null"}
    out += zigzag(len(meta))
    for k, v in meta.items():
        out += avro_string(k) + avro_bytes(v)
    out += zigzag(0) + sync
    body = b"".join(records)
    out += zigzag(len(records)) + zigzag(len(body)) + body + sync
    return bytes(out)


ENTRY_SCHEMA = {
    "type": "record", "name": "manifest_entry", "fields": [
        {"name": "status", "type": "int", "field-id": 0},
        {"name": "snapshot_id", "type": ["null", "long"], "field-id": 1},
        {"name": "sequence_number", "type": ["null", "long"], "field-id": 3},
        {"name": "file_sequence_number", "type": ["null", "long"], "field-id": 4},
        {"name": "data_file", "field-id": 2, "type": {"type": "record", "name": "r2", "fields": [
            {"name": "content", "type": "int", "field-id": 134},
            {"name": "file_path", "type": "string", "field-id": 100},
            {"name": "file_format", "type": "string", "field-id": 101},
            {"name": "partition", "field-id": 102, "type": {"type": "record", "name": "r102", "fields": [
                {"name": "p", "type": ["null", "int"], "field-id": 1000}]}},
            {"name": "record_count", "type": "long", "field-id": 103},
            {"name": "file_size_in_bytes", "type": "long", "field-id": 104},
        ]}},
    ]}

LIST_SCHEMA = {
    "type": "record", "name": "manifest_file", "fields": [
        {"name": "manifest_path", "type": "string", "field-id": 500},
        {"name": "manifest_length", "type": "long", "field-id": 501},
        {"name": "partition_spec_id", "type": "int", "field-id": 502},
        {"name": "content", "type": "int", "field-id": 517},
        {"name": "sequence_number", "type": "long", "field-id": 515},
        {"name": "min_sequence_number", "type": "long", "field-id": 516},
        {"name": "added_snapshot_id", "type": "long", "field-id": 503},
        {"name": "added_files_count", "type": "int", "field-id": 504},
        {"name": "existing_files_count", "type": "int", "field-id": 505},
        {"name": "deleted_files_count", "type": "int", "field-id": 506},
        {"name": "added_rows_count", "type": "long", "field-id": 512},
        {"name": "existing_rows_count", "type": "long", "field-id": 513},
        {"name": "deleted_rows_count", "type": "long", "field-id": 514},
    ]}


def write_table(db, table, manifests, per_manifest, rows):
    """The Parquet files (one written, the others hard links to it: the same rows) and the metadata."""
    data = table / "data"
    (table / "metadata").mkdir(parents=True)
    template = table / "template.parquet"
    db.execute("SELECT parquet_copy('WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < %d) "
               "SELECT x FROM r', '%s')" % (rows, template))
    size = template.stat().st_size
    snapshot = 1
    list_records = []
    for m in range(manifests):
        entries = []
        for f in range(per_manifest):
            p = m * per_manifest + f
            directory = data / ("p=%d" % p)
            directory.mkdir(parents=True)
            path = directory / "part-0.parquet"
            os.link(template, path)
            entries.append(zigzag(1) + b"\x00" + b"\x00" + b"\x00" + zigzag(0) + avro_string(str(path)) +
                           avro_string("PARQUET") + zigzag(1) + zigzag(p) + zigzag(rows) + zigzag(size))
        manifest = table / "metadata" / ("m%d.avro" % m)
        manifest.write_bytes(container(ENTRY_SCHEMA, entries))
        list_records.append(avro_string(str(manifest)) + zigzag(manifest.stat().st_size) + zigzag(0) + zigzag(0) +
                            zigzag(1) + zigzag(1) + zigzag(snapshot) + zigzag(per_manifest) + zigzag(0) + zigzag(0) +
                            zigzag(per_manifest * rows) + zigzag(0) + zigzag(0))
    manifest_list = table / "metadata" / "snap-1.avro"
    manifest_list.write_bytes(container(LIST_SCHEMA, list_records))
    template.unlink()
    metadata = {
        "format-version": 2, "table-uuid": "00000000-0000-0000-0000-000000000047", "location": str(table),
        "last-sequence-number": 1, "last-updated-ms": 0, "last-column-id": 2, "current-schema-id": 0,
        "schemas": [{"type": "struct", "schema-id": 0, "fields": [
            {"id": 1, "name": "x", "required": False, "type": "long"},
            {"id": 2, "name": "p", "required": False, "type": "int"}]}],
        "default-spec-id": 0, "last-partition-id": 1000,
        "partition-specs": [{"spec-id": 0, "fields": [{"source-id": 2, "field-id": 1000, "name": "p", "transform": "identity"}]}],
        "properties": {}, "current-snapshot-id": snapshot,
        "snapshots": [{"snapshot-id": snapshot, "sequence-number": 1, "timestamp-ms": 0,
                       "summary": {"operation": "append"}, "manifest-list": str(manifest_list), "schema-id": 0}],
    }
    (table / "metadata" / "v1.metadata.json").write_text(json.dumps(metadata))
    (table / "metadata" / "version-hint.text").write_text("1")


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
