#!/usr/bin/env python3
"""The Delta conformance suite: every golden table of ../shared/lake/delta/golden read as a
`parquet` table and compared with the rows Spark reads (expected/*.parquet, read with
format=files), as a multiset of rows with the columns matched by name; the tables without
expected/ must read or fail as listed in NO_EXPECTED (what each is there to provoke).

Usage: delta_conformance.py --extension build/parquet [--lake ../shared/lake] [--only NAME]
Prints one line per table and "N passed, M failed"; exits 1 on any failure.
"""
import argparse
import collections
import json
import os
import random
import sqlite3
import sys

# Tables without expected/: ("rows", N) reads N rows; ("error", text) fails with an error
# containing text. How each was checked is in docs/lake-tables.md ("Conformance").
NO_EXPECTED = {
    # Log-only tables (no data files): their snapshots are checked exactly by the unit tests
    # (tests/unit/test_lake.cc, "Delta golden logs"); here a scan must reach the file the
    # replay leaves (its error names it) or read nothing.
    # The same path added as "/x" and removed as "file:/x" / "file:///x" (escaped or not): empty.
    "canonicalized-paths-normal-a": ("rows", 0),
    "canonicalized-paths-normal-b": ("rows", 0),
    "canonicalized-paths-special-a": ("rows", 0),
    "canonicalized-paths-special-b": ("rows", 0),
    "checkpoint": ("error", "checkpoint/delta/15'"),
    "data-reader-absolute-paths-escaped-chars": ("error", "no metaData"),
    "delete-re-add-same-file-different-transactions": ("error", "different-transactions/delta/bar'"),
    "deltalog-commit-info": ("error", "without schemaString"),
    "deltalog-invalid-protocol-version": ("error", "reader version 99"),
    "deltalog-state-reconstruction-from-checkpoint-missing-metadata": ("error", "no metaData"),
    "deltalog-state-reconstruction-from-checkpoint-missing-protocol": ("error", "no protocol"),
    "deltalog-state-reconstruction-without-metadata": ("error", "no metaData"),
    "deltalog-state-reconstruction-without-protocol": ("error", "no protocol"),
    "log-replay-special-characters-b": ("error", "delta/special p@#h'"),
    # Read with format=delta: a directory without _delta_log is not a Delta table.
    "no-delta-log-folder": ("error", "it has no _delta_log directory"),
    "update-deleted-directory": ("error", "without schemaString"),
    "versions-not-contiguous": ("error", "missing version 1"),
}
# Read with format=delta rather than format=auto (which reads a directory without a log as
# plain Parquet files).
FORMAT_DELTA = {"no-delta-log-folder"}


def quote(name):
    return '"' + name.replace('"', '""') + '"'


def rows_of(db, table):
    cols = [r[1] for r in db.execute(f"PRAGMA table_info({quote(table)})")]
    order = sorted(cols)
    data = db.execute(f"SELECT {', '.join(quote(c) for c in order)} FROM {quote(table)}").fetchall()
    return order, collections.Counter(tuple(normal(v) for v in row) for row in data)


def normal(v):
    if isinstance(v, float):
        return round(v, 9) if v == v else None
    return v


def check_table(db, lake, name):
    root = os.path.join(lake, "delta", "golden", name)
    table_dir = os.path.join(root, "delta")
    db.execute("DROP TABLE IF EXISTS t")
    db.execute("DROP TABLE IF EXISTS e")
    expect = NO_EXPECTED.get(name)
    if name == "hive":
        return check_hive(db, table_dir)
    if expect is None and not os.path.isdir(os.path.join(root, "expected")):
        return False, "no expected/ and not listed in NO_EXPECTED"
    try:
        options = ", format=delta" if name in FORMAT_DELTA else ""
        db.execute("CREATE VIRTUAL TABLE t USING parquet('" + table_dir.replace("'", "''") + "'" + options + ")")
        got_cols, got = rows_of(db, "t")
    except sqlite3.Error as e:
        if expect and expect[0] == "error" and expect[1] in str(e):
            return True, f"error as expected: {e}"
        return False, f"error: {e}"
    if expect:
        if expect[0] == "error":
            return False, f"read {sum(got.values())} rows where an error containing '{expect[1]}' was expected"
        if expect[1] is not None and sum(got.values()) != expect[1]:
            return False, f"{sum(got.values())} rows, expected {expect[1]}"
        return True, f"read {sum(got.values())} rows"
    expected_dir = os.path.join(root, "expected")
    db.execute("CREATE VIRTUAL TABLE e USING parquet('" + expected_dir.replace("'", "''") + "', format=files, union_by_name=1)")
    exp_cols, exp = rows_of(db, "e")
    if got_cols != exp_cols:
        return False, f"columns {got_cols} but Spark has {exp_cols}"
    if got != exp:
        missing = list((exp - got).elements())[:3]
        extra = list((got - exp).elements())[:3]
        return False, (f"{sum(got.values())} rows vs Spark's {sum(exp.values())}; "
                       f"missing e.g. {missing}; unexpected e.g. {extra}")
    counted, detail = check_counts(db, sum(exp.values()), got_cols)
    if not counted:
        return False, detail
    return True, f"{sum(got.values())} rows match; {detail}"


def check_counts(db, expected_rows, columns):
    """count(*) (no column read: the files' rows are counted from the log's numRecords and
    deletion-vector cardinalities where it has them, without opening those files) gives
    Spark's row count; rowid, file_row_number and filename read without any column (a
    counted scan, deleted rows' positions loaded when asked) are those of a scan that reads
    a column."""
    count = db.execute("SELECT count(*) FROM t").fetchone()[0]
    stats = db.execute("SELECT files_total, files_pruned, files_opened, files_counted FROM parquet_scan_stats('t')").fetchone()
    if count != expected_rows:
        return False, f"count(*) {count}, Spark has {expected_rows} rows ({stats})"
    if stats[2] + stats[3] != stats[0] - stats[1]:
        return False, f"count(*): {stats[2]} files opened and {stats[3]} counted of {stats[0]} ({stats[1]} pruned)"
    bare = sorted(db.execute("SELECT rowid, file_row_number, filename FROM t").fetchall())
    read = sorted(r[:3] for r in db.execute(f"SELECT rowid, file_row_number, filename, {quote(columns[0])} FROM t").fetchall())
    if bare != read:
        return False, f"rowids without a column differ from rowids with one: {bare[:5]} vs {read[:5]}"
    return True, f"count(*) {count} ({stats[3]} of {stats[0]} files counted, {stats[2]} opened)"


def check_hive(db, table_dir):
    """`hive/delta` holds the Delta tables of the Hive connector's tests, one per folder."""
    results = []
    for sub in sorted(os.listdir(table_dir)):
        db.execute("DROP TABLE IF EXISTS t")
        path = os.path.join(table_dir, sub)
        try:
            db.execute("CREATE VIRTUAL TABLE t USING parquet('" + path.replace("'", "''") + "', format=delta)")
            n = db.execute("SELECT count(*) FROM t").fetchone()[0]
            results.append(f"{sub} {n} rows")
        except sqlite3.Error as e:
            if sub in HIVE_ERRORS and HIVE_ERRORS[sub] in str(e):
                results.append(f"{sub} error as expected")
            else:
                return False, f"{sub}: {e}"
    return True, "; ".join(results)


# hive/delta tables that must fail, and how.
HIVE_ERRORS = {}


def check_stored_table_security(extension, lake, tmpdir):
    """allow_external_paths is honoured by the application's own CREATE only: the same table
    connected from a database file refuses the log's external path."""
    path = os.path.join(lake, "delta", "golden", "canonicalized-paths-normal-a", "delta")
    dbfile = os.path.join(tmpdir, "stored.db")
    db = sqlite3.connect(dbfile)
    db.enable_load_extension(True)
    db.load_extension(extension)
    db.execute("CREATE VIRTUAL TABLE ext USING parquet('" + path.replace("'", "''") + "', version=0, allow_external_paths=1)")
    try:
        db.execute("SELECT count(*) FROM ext").fetchall()
        return False, "the external file was opened"
    except sqlite3.Error as e:
        if "cannot open '/some/unqualified/absolute/path'" not in str(e):
            return False, f"creating connection: {e}"
    db.commit()
    db.close()
    db = sqlite3.connect(dbfile)
    db.enable_load_extension(True)
    db.load_extension(extension)
    try:
        db.execute("SELECT count(*) FROM ext").fetchall()
        return False, "a stored table read outside its root"
    except sqlite3.Error as e:
        if "outside the table's directory" not in str(e):
            return False, f"stored table: {e}"
    return True, "allow_external_paths ignored for a table connected from a database file"


# Golden tables with deletion vectors, partitions and statistics whose rows are compared
# under random WHERE clauses with a native table of Spark's rows (pruning by partition,
# by the log's statistics and by row groups must be sound with deletes in play).
DIFFERENTIAL_TABLES = [
    "dv-with-columnmapping", "log-replay-dv-key-cases", "data-skipping-partition-and-data-column",
    "basic-with-inserts-deletes-checkpoint", "basic-with-inserts-merge", "snapshot-repartitioned",
    "time-travel-partition-changes-b", "data-skipping-basic-stats-all-types", "parquet-all-types",
]


def check_record_count_trust(extension, tmpdir):
    """count(*) takes the log's numRecords as the file's row count without opening it (as
    Delta readers do); a scan that opens the file checks the count, and a file that holds
    another number of rows is an error naming it."""
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(extension)
    table = os.path.join(tmpdir, "miscounted")
    os.makedirs(os.path.join(table, "_delta_log"))
    db.execute("SELECT parquet_copy('WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 10) "
               "SELECT i AS id FROM r', ?, 'schema=id INT64')", (os.path.join(table, "part-0.parquet"),))
    schema = json.dumps({"type": "struct", "fields": [{"name": "id", "type": "long", "nullable": True, "metadata": {}}]})
    actions = [{"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}},
               {"metaData": {"id": "m", "format": {"provider": "parquet", "options": {}}, "schemaString": schema,
                             "partitionColumns": [], "configuration": {}}},
               {"add": {"path": "part-0.parquet", "partitionValues": {}, "size": 1, "modificationTime": 0,
                        "dataChange": True, "stats": json.dumps({"numRecords": 12})}}]
    with open(os.path.join(table, "_delta_log", "00000000000000000000.json"), "w") as f:
        f.write("\n".join(json.dumps(a) for a in actions) + "\n")
    db.execute("CREATE VIRTUAL TABLE t USING parquet('" + table.replace("'", "''") + "')")
    count = db.execute("SELECT count(*) FROM t").fetchone()[0]
    try:
        db.execute("SELECT sum(id) FROM t").fetchall()
        error = None
    except sqlite3.Error as e:
        error = str(e)
    ok = count == 12 and error is not None and "holds 12 rows, but it holds 10" in error and "part-0.parquet" in error
    # A claim too large to be believed (2^62 rows: counting it would run for ever, and the
    # rowids of later files would overflow) is not counted: the file is opened, and refused.
    actions[2]["add"]["stats"] = json.dumps({"numRecords": 1 << 62})
    with open(os.path.join(table, "_delta_log", "00000000000000000001.json"), "w") as f:
        f.write(json.dumps({"remove": {"path": "part-0.parquet", "dataChange": True}}) + "\n" +
                json.dumps(actions[2]) + "\n")
    db.execute("CREATE VIRTUAL TABLE huge USING parquet('" + table.replace("'", "''") + "')")
    try:
        huge = db.execute("SELECT count(*) FROM huge").fetchall()
    except sqlite3.Error as e:
        huge = str(e)
    ok = ok and isinstance(huge, str) and f"holds {1 << 62} rows, but it holds 10" in huge
    return ok, f"count(*) {count} (the log's numRecords); a scan: {error}; a claim of 2^62 rows: {huge}"


def sql_literal(v):
    if v is None:
        return "NULL"
    if isinstance(v, bytes):
        return "X'" + v.hex() + "'"
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    return repr(v)


def random_term(rng, col, values):
    v = rng.choice(values)
    if rng.random() < 0.15 and isinstance(v, (int, float)):
        v = str(v)  # the other storage class: SQLite's affinity rules decide
    elif rng.random() < 0.2 and isinstance(v, int):
        v = v + rng.choice([-1, 1])
    op = rng.choice(["=", "<", "<=", ">", ">=", "!=", "IS NULL", "IS NOT NULL", "IN", "BETWEEN"])
    c = quote(col)
    if op in ("IS NULL", "IS NOT NULL"):
        return f"{c} {op}"
    if op == "IN":
        return f"{c} IN ({', '.join(sql_literal(rng.choice(values)) for _ in range(rng.randint(1, 4)))})"
    if op == "BETWEEN":
        a, b = sql_literal(rng.choice(values)), sql_literal(rng.choice(values))
        return f"{c} BETWEEN {a} AND {b}"
    return f"{c} {op} {sql_literal(v)}"


def check_differential(db, lake, name, rng, queries):
    root = os.path.join(lake, "delta", "golden", name)
    db.execute("DROP TABLE IF EXISTS t")
    db.execute("DROP TABLE IF EXISTS e")
    db.execute("DROP TABLE IF EXISTS n")
    db.execute("CREATE VIRTUAL TABLE t USING parquet('" + os.path.join(root, "delta").replace("'", "''") + "')")
    db.execute("CREATE VIRTUAL TABLE e USING parquet('" + os.path.join(root, "expected").replace("'", "''") +
               "', format=files, union_by_name=1)")
    db.execute("CREATE TABLE n AS SELECT * FROM e")
    info = [(r[1], r[2]) for r in db.execute("PRAGMA table_info(t)")]
    cols = sorted(c for c, _ in info)
    scalar = [c for c, ty in info if "JSON" not in ty.upper()]
    select = ", ".join(quote(c) for c in cols)
    samples = {c: [r[0] for r in db.execute(f"SELECT {quote(c)} FROM n ORDER BY random() LIMIT 20")] for c in scalar}
    for i in range(queries):
        terms = [random_term(rng, c, samples[c] or [None]) for c in rng.sample(scalar, min(len(scalar), rng.randint(1, 2)))]
        where = (" AND " if rng.random() < 0.7 else " OR ").join(terms)
        got = collections.Counter(tuple(normal(v) for v in r) for r in db.execute(f"SELECT {select} FROM t WHERE {where}"))
        want = collections.Counter(tuple(normal(v) for v in r) for r in db.execute(f"SELECT {select} FROM n WHERE {where}"))
        if got != want:
            return False, f"WHERE {where}: {sum(got.values())} rows, native {sum(want.values())}"
        if rng.random() < 0.2:
            limit = rng.randint(0, 5)
            n = len(db.execute(f"SELECT {select} FROM t WHERE {where} LIMIT {limit}").fetchall())
            if n != min(limit, sum(want.values())):
                return False, f"WHERE {where} LIMIT {limit}: {n} rows"
    return True, f"{queries} random queries agree"


# kernel-data tables with the rows delta-kernel-rs's tests expect (kernel/tests/v2_checkpoints.rs,
# read.rs): (table, column, row count, sum of the column).
KERNEL_EXPECTED = [
    ("table-with-dv-small", "value", 8, 36),
    ("table-without-dv-small", "value", 10, 45),
    ("v2-checkpoints-json-with-sidecars.x/v2-checkpoints-json-with-sidecars", "id", 1233, 509835),
    ("v2-checkpoints-parquet-with-sidecars.x/v2-checkpoints-parquet-with-sidecars", "id", 1233, 509835),
    ("v2-checkpoints-json-without-sidecars.x/v2-checkpoints-json-without-sidecars", "id", 11, 2763),
    ("v2-checkpoints-parquet-without-sidecars.x/v2-checkpoints-parquet-without-sidecars", "id", 11, 2763),
    ("v2-classic-checkpoint-json.x/v2-classic-checkpoint-json", "id", 20, 190),
    ("v2-classic-checkpoint-parquet.x/v2-classic-checkpoint-parquet", "id", 20, 190),
    ("v2-checkpoints-json-with-last-checkpoint.x/v2-checkpoints-json-with-last-checkpoint", "id", 10, 45),
    ("v2-checkpoints-parquet-with-last-checkpoint.x/v2-checkpoints-parquet-with-last-checkpoint", "id", 10, 45),
]


def check_kernel_table(db, lake, name, column, count, total):
    path = os.path.join(lake, "delta", "kernel-data", name)
    db.execute("DROP TABLE IF EXISTS t")
    try:
        db.execute("CREATE VIRTUAL TABLE t USING parquet('" + path.replace("'", "''") + "')")
        got = db.execute(f"SELECT count(*), sum({quote(column)}) FROM t").fetchone()
    except sqlite3.Error as e:
        return False, f"error: {e}"
    return got == (count, total), f"{got[0]} rows, sum {got[1]} (delta-kernel-rs: {count}, {total})"


# ---- time travel: every version of every golden table with more than one ----

def snapshot_family(version):
    """The rows (col1, col2) of version `version` of the snapshot-* golden tables, as
    delta-io/delta's GoldenTables.scala writes them: 10 rows data-0-x, 10 more data-1-x
    appended, an overwrite by data-2-x, 20 rows data-3-x appended, a delete of data-2-%,
    then the same rows repartitioned (dataChange=false)."""
    rows = {
        0: [(x, f"data-0-{x}") for x in range(10)],
        1: [(x, f"data-{d}-{x}") for d in (0, 1) for x in range(10)],
        2: [(x, f"data-2-{x}") for x in range(10)],
        3: [(x, f"data-2-{x}") for x in range(10)] + [(x, f"data-3-{x}") for x in range(20)],
        4: [(x, f"data-3-{x}") for x in range(20)],
        5: [(x, f"data-3-{x}") for x in range(20)],
    }[version]
    return ["col1", "col2"], rows


def time_travel_start(version):
    """time-travel-start*: each version appends ids 10v .. 10v+9."""
    return ["id"], [(i,) for i in range(10 * (version + 1))]


# Golden tables whose earlier versions GoldenTables.scala defines exactly: table -> function
# of the version giving (columns sorted by name, rows).
TIME_TRAVEL_EXPECTED = {
    "snapshot-data1": snapshot_family, "snapshot-data2": snapshot_family, "snapshot-data3": snapshot_family,
    "snapshot-data2-deleted": snapshot_family, "snapshot-repartitioned": snapshot_family,
    "snapshot-vacuumed": snapshot_family,
    "time-travel-start-start20": time_travel_start, "time-travel-start-start20-start40": time_travel_start,
    # Version 0 has only `id`; version 1 adds `part` (mergeSchema) to ids 10-19.
    "time-travel-schema-changes-b": lambda v: (["id"], [(i,) for i in range(10)]) if v == 0 else
    (["id", "part"], [(i, None) for i in range(10)] + [(i, i) for i in range(10, 20)]),
    # Version 0 partitioned by part5 = id % 5; version 1 overwrites it (overwriteSchema) with
    # ids 10-19 partitioned by part2 = id % 2.
    "time-travel-partition-changes-b": lambda v: (["id", "part5"], [(i, i % 5) for i in range(10)]) if v == 0 else
    (["id", "part2"], [(i, i % 2) for i in range(10, 20)]),
}

# Versions that must fail, and with what (a substring of the error): what the table's
# generator left there (GoldenTables.scala: log-only tables naming files that do not exist,
# files vacuumed away, metaData without a schema, a deleted commit).
def time_travel_error(name, version):
    missing_file = {
        "checkpoint": f"checkpoint/delta/{version + 1}'",  # commit v adds file "v+1" (and removes "v")
        "delete-re-add-same-file-different-transactions": {0: "delta/foo'", 2: "delta/foo'", 3: "delta/bar'"}.get(version),
        "deltalog-getChanges": "fake/path/1'" if version == 0 else None,
        "log-replay-special-characters": "special p@#h'" if version == 0 else None,
        "log-replay-special-characters-a": "special p@#h'" if version == 0 else None,
        "snapshot-vacuumed": "snapshot-vacuumed/delta/part-00000-" if version < 5 else None,
    }
    if name in missing_file:
        return missing_file[name]
    if name.startswith("canonicalized-paths-"):
        return "names data file '/some/unqualified/" if version == 0 else None  # absolute: refused
    if name == "data-reader-absolute-paths-escaped-chars":
        return "no metaData"
    if name.startswith("deltalog-state-reconstruction-from-checkpoint-missing-"):
        return "metaData without schemaString" if version < 10 else ("no " + ("metaData" if name.endswith("metadata") else "protocol"))
    if name == "versions-not-contiguous":
        return "metaData without schemaString" if version == 0 else "missing version 1"
    return None


def log_versions(table_dir):
    log = os.path.join(table_dir, "_delta_log")
    if not os.path.isdir(log):
        return []
    return sorted({int(f[:20]) for f in os.listdir(log) if len(f) > 21 and f[:20].isdigit() and f[20] == "."})


# kernel-data tables whose versions must fail: the corpus holds their logs but not these
# data files (delta-kernel-rs's tests read only their logs), or a log-only fake path.
def kernel_time_travel_error(name, version):
    if name == "app-txn-with-last-updated" or (name == "with_checkpoint_no_last_checkpoint" and version >= 1):
        return f"{name}/part-00000-" if name != "app-txn-with-last-updated" else f"{name}/part-00001-"
    if name == "table-with-cdf" and version == 0:
        return "fake/path/1'"
    return None


# kernel-data tables whose versions delta-kernel-rs's tests describe (kernel/tests/cdf.rs,
# cdf_with_deletion_vector: insert 0-9, delete 0 and 9 by a deletion vector, restore them,
# delete 0, 1, 4, 5, restore 1 and 4, restore 0 and 5 and delete 3, restore 3). Version 5's
# inline vector ends in the z85 crate's padded form ("##093": two bytes).
def cdf_table_with_dv(version):
    deleted = [set(), {0, 9}, set(), {0, 1, 4, 5}, {0, 5}, {3}, set()][version]
    return ["value"], [(v,) for v in range(10) if v not in deleted]


KERNEL_TIME_TRAVEL_EXPECTED = {"cdf-table-with-dv": cdf_table_with_dv}


def kernel_tables_with_versions(lake):
    """(name, directory) of each kernel-data table (or the one table inside a NAME.x folder)
    whose log has more than one version."""
    base = os.path.join(lake, "delta", "kernel-data")
    found = []
    for name in sorted(os.listdir(base)):
        for d in [os.path.join(base, name)] + [os.path.join(base, name, sub) for sub in
                                               (sorted(os.listdir(os.path.join(base, name))) if os.path.isdir(os.path.join(base, name)) else [])]:
            if len(log_versions(d)) >= 2:
                found.append((os.path.basename(d), d))
    return found


def check_time_travel(db, lake, name, table_dir=None, error_for=None, expected=None):
    """Every version 0..latest of golden table `name` read with version=N: the rows (and
    count(*), counted from the log where it can be) where TIME_TRAVEL_EXPECTED knows them,
    the error time_travel_error names where one is due, and otherwise a read without error
    whose count(*) equals its rows. Returns (ok, detail, versions read, versions compared)."""
    table_dir = table_dir or os.path.join(lake, "delta", "golden", name, "delta")
    error_for = error_for or time_travel_error
    expected = TIME_TRAVEL_EXPECTED if expected is None else expected
    latest = max(log_versions(table_dir))
    compared = failing = 0
    for version in range(latest + 1):
        db.execute("DROP TABLE IF EXISTS tt")
        want_error = error_for(name, version)
        try:
            db.execute("CREATE VIRTUAL TABLE tt USING parquet('" + table_dir.replace("'", "''") + f"', version={version})")
            cols, got = rows_of(db, "tt")
            count = db.execute("SELECT count(*) FROM tt").fetchone()[0]
        except sqlite3.Error as e:
            if want_error and want_error in str(e):
                failing += 1
                continue
            return False, f"version {version}: error {e}", version + 1, compared
        if want_error:
            return False, f"version {version}: read {sum(got.values())} rows where an error containing '{want_error}' was due", version + 1, compared
        if count != sum(got.values()):
            return False, f"version {version}: count(*) {count} but the scan reads {sum(got.values())} rows", version + 1, compared
        if name in expected:
            want_cols, want_rows = expected[name](version)
            want = collections.Counter(tuple(normal(v) for v in r) for r in want_rows)
            if cols != want_cols or got != want:
                return False, (f"version {version}: columns {cols} with {sum(got.values())} rows; "
                               f"expected: {want_cols} with {sum(want.values())}; "
                               f"missing e.g. {list((want - got).elements())[:3]}, unexpected e.g. {list((got - want).elements())[:3]}"), version + 1, compared
            compared += 1
    return True, (f"versions 0-{latest} read" + (f", {compared} equal to the rows expected" if compared else "") +
                  (f", {failing} failing as due" if failing else "")), latest + 1, compared


# ---- _last_checkpoint: a local table never needs it ----

LAST_CHECKPOINT_BODIES = [
    ("names a version without a checkpoint", '{"version":12,"size":30}'),
    ("names a future version", '{"version":40,"size":30}'),
    ("names 2^63-1", '{"version":9223372036854775807}'),
    ("names a negative version", '{"version":-10}'),
    ("names a fractional version", '{"version":10.5}'),
    ("names an overflowing version", '{"version":123456789012345678901234567890}'),
    ("has parts 0", '{"version":10,"parts":0}'),
    ("has an absurd parts count", '{"version":10,"parts":100000000000}'),
    ("is truncated JSON", '{"version":10,"si'),
    ("is empty", ""),
    ("is 3 MiB long", " " * (3 << 20) + '{"version":10}'),
]


def check_local_last_checkpoint(db, lake, tmpdir):
    """A copy of dv-with-columnmapping (checkpoint 10, commits to 15) whose _last_checkpoint is
    missing, wrong or hostile (LAST_CHECKPOINT_BODIES, or a directory): the latest version and
    version 12 read the original's rows (a local listing is whole: the hint is not read)."""
    import shutil
    source = os.path.join(lake, "delta", "golden", "dv-with-columnmapping", "delta")
    copy = os.path.join(tmpdir, "hint-table")
    shutil.copytree(source, copy)
    hint = os.path.join(copy, "_delta_log", "_last_checkpoint")

    def read(path, version=None):
        db.execute("DROP TABLE IF EXISTS lc")
        db.execute("CREATE VIRTUAL TABLE lc USING parquet('" + path.replace("'", "''") + "'" +
                   (f", version={version}" if version is not None else "") + ")")
        return rows_of(db, "lc")

    want, want12 = read(source), read(source, 12)
    cases = [("is missing", None)] + LAST_CHECKPOINT_BODIES + [("is a directory", "dir")]
    for label, body in cases:
        if os.path.isdir(hint):
            os.rmdir(hint)
        elif os.path.exists(hint):
            os.unlink(hint)
        if body == "dir":
            os.mkdir(hint)
        elif body is not None:
            with open(hint, "w") as f:
                f.write(body)
        try:
            got, got12 = read(copy), read(copy, 12)
        except sqlite3.Error as e:
            return False, f"_last_checkpoint {label}: {e}"
        if got != want or got12 != want12 or sum(got[1].values()) == 0:
            return False, f"_last_checkpoint {label}: {sum(got[1].values())} rows (version 12: {sum(got12[1].values())})"
    return True, f"{len(cases)} kinds of _last_checkpoint: the original's rows at the latest version and at version 12"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--extension", required=True)
    parser.add_argument("--lake", default="../shared/lake")
    parser.add_argument("--only")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--queries", type=int, default=150)
    args = parser.parse_args()
    # The version matrix (scripts/run_matrix.sh) runs this suite with another libsqlite3 first
    # on LD_LIBRARY_PATH: Python's sqlite3 module must be running that one.
    expected = os.environ.get("SQLITE_EXPECTED_VERSION")
    if expected and sqlite3.sqlite_version != expected:
        print(f"delta conformance: expected SQLite {expected}, python3 runs {sqlite3.sqlite_version}\n0 passed, 1 failed")
        return 1
    golden = os.path.join(args.lake, "delta", "golden")
    if not os.path.isdir(golden):
        print(f"delta conformance: {golden} not found")
        print("0 passed, 1 failed")
        return 1
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(os.path.abspath(args.extension))
    passed = failed = 0
    for name in sorted(os.listdir(golden)):
        if args.only and name != args.only:
            continue
        ok, detail = check_table(db, args.lake, name)
        print(f"{'ok' if ok else 'FAIL'} {name}: {detail}")
        if ok:
            passed += 1
        else:
            failed += 1
    for name, column, count, total in KERNEL_EXPECTED:
        if args.only and name != args.only:
            continue
        ok, detail = check_kernel_table(db, args.lake, name, column, count, total)
        print(f"{'ok' if ok else 'FAIL'} kernel-data {name}: {detail}")
        passed, failed = passed + ok, failed + (not ok)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"differential seed {seed} (--seed repeats it)")
    rng = random.Random(seed)
    for name in DIFFERENTIAL_TABLES:
        if args.only and name != args.only:
            continue
        try:
            ok, detail = check_differential(db, args.lake, name, rng, args.queries)
        except sqlite3.Error as e:
            ok, detail = False, f"error: {e}"
        print(f"{'ok' if ok else 'FAIL'} differential {name}: {detail}")
        passed, failed = passed + ok, failed + (not ok)
    tables = versions = compared = 0
    for name in sorted(os.listdir(golden)):
        if (args.only and name != args.only) or len(log_versions(os.path.join(golden, name, "delta"))) < 2:
            continue
        try:
            ok, detail, read, equal = check_time_travel(db, args.lake, name)
        except sqlite3.Error as e:
            ok, detail, read, equal = False, f"error: {e}", 0, 0
        tables, versions, compared = tables + 1, versions + read, compared + equal
        print(f"{'ok' if ok else 'FAIL'} time travel {name}: {detail}")
        passed, failed = passed + ok, failed + (not ok)
    golden_tables, golden_versions = tables, versions
    kernel_compared = 0
    for name, table_dir in kernel_tables_with_versions(args.lake):
        if args.only and name != args.only:
            continue
        try:
            ok, detail, read, equal = check_time_travel(db, args.lake, name, table_dir, kernel_time_travel_error,
                                                        KERNEL_TIME_TRAVEL_EXPECTED)
            kernel_compared += equal
        except sqlite3.Error as e:
            ok, detail, read = False, f"error: {e}", 0
        tables, versions = tables + 1, versions + read
        print(f"{'ok' if ok else 'FAIL'} time travel kernel-data {name}: {detail}")
        passed, failed = passed + ok, failed + (not ok)
    if not args.only:
        print(f"time travel: {golden_tables} golden tables ({golden_versions} versions, {compared} compared with "
              f"GoldenTables.scala's rows) and {tables - golden_tables} kernel-data tables ({versions - golden_versions} versions, "
              f"{kernel_compared} compared with delta-kernel-rs's)")
        ok = golden_tables >= 35 and tables - golden_tables >= 40 and compared >= 25 and kernel_compared >= 7
        print(f"{'ok' if ok else 'FAIL'} time travel coverage: at least 35 golden and 40 kernel-data tables, 25 versions compared")
        passed, failed = passed + ok, failed + (not ok)
    if not args.only:
        import tempfile
        with tempfile.TemporaryDirectory() as tmpdir:
            ok, detail = check_local_last_checkpoint(db, args.lake, tmpdir)
            print(f"{'ok' if ok else 'FAIL'} local-last-checkpoint: {detail}")
            passed, failed = passed + ok, failed + (not ok)
            ok, detail = check_stored_table_security(os.path.abspath(args.extension), args.lake, tmpdir)
            print(f"{'ok' if ok else 'FAIL'} stored-table-security: {detail}")
            passed, failed = passed + ok, failed + (not ok)
            ok, detail = check_record_count_trust(os.path.abspath(args.extension), tmpdir)
        print(f"{'ok' if ok else 'FAIL'} record-count-trust: {detail}")
        passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
