#!/usr/bin/env python3
"""The Iceberg conformance suite: the queries of duckdb-iceberg's sqllogictest files
(../shared/lake/iceberg/duckdb-iceberg-tests/**/*.test) that read a table with
ICEBERG_SCAN('...'), translated to a `parquet` table over the same table directory of
../shared/lake/iceberg/duckdb-iceberg (allow_moved_paths=1: the metadata names the paths
DuckDB's tests wrote them at; snapshot_from_id -> snapshot_id, snapshot_from_timestamp ->
timestamp, version='X' -> the metadata file X), run in SQLite and compared with the rows
the test expects (in order when the query orders them, else as a multiset).

Each full scan that matched is then checked by random WHERE clauses against a native SQLite
copy of its rows (pruning and deleted rows must not change what a filter returns).

A query SQLite cannot prepare (DuckDB syntax or functions) is counted as not translatable;
every translated query must give the expected rows, except those in KNOWN (each with the
reason), and at least MIN_PASSED must pass.

Usage: iceberg_conformance.py --extension build/parquet [--lake ../shared/lake] [--verbose]
Prints one line per query that fails, the counts, and exits 1 on any failure.
"""
import argparse
import json
import os
import random
import re
import sqlite3
import sys

MIN_PASSED = 66

# "file:query number" -> why the expected rows are not reproduced.
KNOWN = {
    # Files outside the table's location: refused without allow_external_paths=1 (and they
    # are not in the corpus: s3://fake-bucket, DuckDB's working directory).
    "local/generated_bounds.test:1": "external paths (s3://fake-bucket)",
    "local/iceberg_scans/big_query_read.test:1": "external paths (the manifest list outside gs:// location)",
    # v3 initial-default values of columns missing from the files are not applied (NULL).
    "local/initial_default_in_struct_all_types.test:1": "initial-default in a struct (not applied)",
    # Identity partition values from the manifests: DuckDB casts the literal to the column's
    # type; SQLite compares a REAL widened from a float, or text in our timestamp form.
    "local/partitioning/identity/identity_double.test:2": "float column against a double literal",
    "local/partitioning/identity/identity_float.test:2": "float column against a double literal",
    "local/partitioning/identity/identity_timestamp.test:2": "'T' timestamp literal compared as text",
    "local/partitioning/identity/identity_timestamptz.test:1": "DuckDB shows timestamptz in a +02 zone",
    "local/partitioning/identity/identity_timestamptz.test:2": "timestamptz literal with a zone compared as text",
    # A column identity-partitioned in the files of one spec only (partition evolution) and
    # missing from those files: its values come from the manifests only where every file's
    # spec has it.
    "local/partitioning/identity/identity_date_and_string.test:1": "identity partition of some files only",
    # SQLite's column names are case-insensitive: "user_id" and "uSeR_Id" are one column.
    "local/case_sensitive_names.test:1": "column names differing in case only",
    # Maps read as JSON ({"key":"value1"}); DuckDB prints {key=value1}.
    "local/missing_map_bounds.test:1": "map shown as JSON",
    # A data file in a sibling directory of the table (DuckDB's working directory).
    "local/column_mapping.test:2": "external path",
    # A binary partition value that is not UTF-8 comes out as TEXT.
    "local/partitioning/identity/identity_binary.test:1": "binary partition value as TEXT",
}

# Impala's tables with the rows Impala's own tests expect (apache/impala tests/query_test/
# test_iceberg.py, test_read_null_delete_records): position delete files naming the data
# file as hdfs://host/... where the manifest says /..., and rows with a NULL file_path.
IMPALA = [
    ("hadoop_catalog/ice/iceberg_v2_null_delete_record", "SELECT count(*) FROM t", ["6"]),
    ("hadoop_catalog/ice/iceberg_v2_null_delete_record", "SELECT * FROM t WHERE j < 3 ORDER BY 1", ["1\t1", "2\t2"]),
]

SCAN = re.compile(r"iceberg_scan\(\s*'([^']*)'\s*((?:,[^()]*)?)\)", re.IGNORECASE)


def parse_tests(path):
    """The query records of one sqllogictest file: (number, types, sort, sql, expected rows)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    number = 0
    out = []
    while i < len(lines):
        line = lines[i]
        if line.startswith("query "):
            parts = line.split()
            types = parts[1]
            sort = parts[2] if len(parts) > 2 else ""
            i += 1
            sql = []
            while i < len(lines) and lines[i].strip() != "----" and lines[i].strip() != "":
                sql.append(lines[i])
                i += 1
            expected = []
            if i < len(lines) and lines[i].strip() == "----":
                i += 1
                while i < len(lines) and lines[i].strip() != "":
                    expected.append(lines[i])
                    i += 1
            number += 1
            out.append((number, types, sort, " ".join(sql), expected))
        i += 1
    return out


def table_path(raw, data):
    raw = raw.replace("{WORKING_DIRECTORY}/", "").replace("__WORKING_DIRECTORY__/", "")
    if not raw.startswith("data/persistent/"):
        return None
    return os.path.join(data, raw[len("data/persistent/"):])


def translate(sql, data, db, counter):
    """The query with each ICEBERG_SCAN(...) replaced by a parquet table (None: not translatable)."""
    def replace(match):
        path = table_path(match.group(1), data)
        if path is None:
            raise ValueError("path outside data/persistent")
        options = ["allow_moved_paths=1"]
        for option in [o.strip() for o in match.group(2).split(",") if o.strip()]:
            key, _, value = option.partition("=")
            key = key.strip().lower()
            value = value.strip()
            if key == "snapshot_from_id":
                options.append("snapshot_id=" + value)
            elif key == "snapshot_from_timestamp":
                options.append("timestamp=" + value.replace("::TIMESTAMP", ""))
            elif key == "version":
                name = value.strip("'")
                candidates = [name + ".metadata.json", "v" + name + ".metadata.json"]
                found = [c for c in candidates if os.path.exists(os.path.join(path, "metadata", c))]
                if not found:
                    raise ValueError("version " + name)
                path = os.path.join(path, "metadata", found[0])
            elif key == "allow_moved_paths":
                pass
            else:
                raise ValueError("option " + key)
        counter[0] += 1
        name = "ice%d" % counter[0]
        counter.append((name, schema_order(path)))
        db.execute("CREATE VIRTUAL TABLE %s USING parquet('%s', %s)" % (name, path.replace("'", "''"), ", ".join(options)))
        return name
    if re.match(r"\s*from\b", sql, re.IGNORECASE):  # DuckDB's FROM-first form
        sql = "SELECT * " + sql.lstrip()
    # Typed literals: DATE '2025-01-01' is the text our date columns hold.
    sql = re.sub(r"\bDATE\s+('[0-9-]+')", r"\1", sql, flags=re.IGNORECASE)
    # (VALUES (1), (2)) name(column): SQLite names a VALUES column column1.
    sql = re.sub(r"\(VALUES\s*((?:\([^()]*\)\s*,?\s*)+)\)\s*(\w+)\((\w+)\)",
                 r"(SELECT column1 AS \3 FROM (VALUES \1)) \2", sql, flags=re.IGNORECASE)
    sql = SCAN.sub(replace, sql)
    # SELECT * lists the columns in the table's schema order; the parquet table declares the
    # identity partition columns it reads from the manifests last.
    for name, order in counter[1:]:
        if order:
            columns = ", ".join('"%s"' % c.replace('"', '""') for c in order)
            sql = re.sub(r"(select\s+)\*(\s+from\s+%s\b)" % name, lambda m: m.group(1) + columns + m.group(2), sql,
                         flags=re.IGNORECASE)
    sql = re.sub(r"order\s+by\s+all", "ORDER BY __ALL__", sql, flags=re.IGNORECASE)
    if re.match(r"\s*from\b", sql, re.IGNORECASE):  # DuckDB's FROM-first form
        sql = "SELECT * " + sql.lstrip()
    return sql.rstrip().rstrip(";")


def schema_order(path):
    """The column names of the table's current schema, in order (None when not found)."""
    try:
        if path.endswith(".json"):
            metadata = path
        else:
            directory = os.path.join(path, "metadata")
            hint = os.path.join(directory, "version-hint.text")
            metadata = None
            if os.path.exists(hint):
                version = open(hint).read().strip()
                for candidate in ("v%s.metadata.json" % version, "%s.metadata.json" % version):
                    if os.path.exists(os.path.join(directory, candidate)):
                        metadata = os.path.join(directory, candidate)
            if metadata is None:
                def number(name):
                    digits = re.match(r"v?(\d+)", name)
                    return int(digits.group(1)) if digits else -1
                names = [n for n in os.listdir(directory) if n.endswith(".metadata.json") and not n.startswith(".")]
                metadata = os.path.join(directory, max(names, key=lambda n: (number(n), n)))
        doc = json.load(open(metadata))
        schemas = doc.get("schemas") or [doc.get("schema")]
        current = doc.get("current-schema-id", schemas[0].get("schema-id"))
        for schema in schemas:
            if schema.get("schema-id", current) == current:
                return [f["name"] for f in schema["fields"]]
    except (OSError, ValueError, KeyError):
        return None
    return None


def shown(value):
    if value is None:
        return "NULL"
    if isinstance(value, float):
        if value == int(value) and abs(value) < 1e15:
            return str(int(value)) if False else repr(value)
        return repr(value)
    if isinstance(value, bytes):
        return "".join(chr(b) if 32 <= b < 127 and b != 92 else "\\x%02X" % b for b in value)
    return str(value)


def normal(text):
    """Expected and actual values compared loosely where DuckDB prints differently."""
    text = text.strip()
    if text in ("true", "false"):
        return "1" if text == "true" else "0"
    if re.fullmatch(r"-?\d+\.0+", text):
        return text.split(".")[0]
    if re.fullmatch(r"-?\d+\.\d+", text):
        return text.rstrip("0")
    m = re.fullmatch(r"(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d(?:\.\d+)?)(?:\+00(?::00)?|Z)?", text)
    if m:
        frac = m.group(2)
        if "." in frac:
            frac = frac.rstrip("0").rstrip(".")
        return m.group(1) + " " + frac
    return text


def cell_equal(a, b):
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    # Floats: DuckDB prints a float column with float precision.
    return abs(x - y) <= 1e-6 * max(abs(x), abs(y))


def rows_equal(got, want, ordered):
    if len(got) != len(want):
        return False
    if not ordered:
        got, want = sorted(got), sorted(want)
    for g, w in zip(got, want):
        gc, wc = g.split("\t"), w.split("\t")
        if len(gc) != len(wc) or not all(cell_equal(a, b) for a, b in zip(gc, wc)):
            return False
    return True


def differential(db, name, rng, count=40):
    """Random WHERE clauses on table `name` against a native copy of its rows (read by a full
    scan that matched the expected rows): pruning by statistics and partition values, and
    deleted rows, must not change what a filter returns. Returns the failures."""
    columns = [r[1] for r in db.execute("PRAGMA table_info(%s)" % name)]
    db.execute("CREATE TABLE native_%s AS SELECT * FROM %s" % (name, name))
    values = {c: [r[0] for r in db.execute('SELECT DISTINCT "%s" FROM %s' % (c, name))] for c in columns}
    failures = []
    for _ in range(count):
        terms = []
        for _ in range(rng.randint(1, 2)):
            column = rng.choice(columns)
            candidates = [v for v in values[column] if v is not None and not isinstance(v, bytes)]
            op = rng.choice(["=", "<", ">", "<=", ">=", "!=", "IS NULL", "IS NOT NULL"])
            if op.startswith("IS") or not candidates:
                terms.append('"%s" %s' % (column, op if op.startswith("IS") else "IS NULL"))
            else:
                value = rng.choice(candidates)
                if isinstance(value, (int, float)) and rng.random() < 0.3:
                    value = value + rng.choice([-1, 1])
                literal = repr(value) if isinstance(value, (int, float)) else "'" + str(value).replace("'", "''") + "'"
                terms.append('"%s" %s %s' % (column, op, literal))
        where = (" AND " if rng.random() < 0.6 else " OR ").join(terms)
        got = sorted(map(repr, db.execute("SELECT * FROM %s WHERE %s" % (name, where)).fetchall()))
        want = sorted(map(repr, db.execute("SELECT * FROM native_%s WHERE %s" % (name, where)).fetchall()))
        if got != want:
            failures.append("%s WHERE %s: %d rows, native %d" % (name, where, len(got), len(want)))
    return failures


def connect(extension):
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(extension)
    return db


def copy_rows(db, rows, columns, path):
    """Writes `rows` (tuples of `columns`: (name, SQL type)) to the Parquet file `path`."""
    db.execute("DROP TABLE IF EXISTS temp.src")
    db.execute("CREATE TEMP TABLE src(%s)" % ", ".join("%s %s" % c for c in columns))
    db.executemany("INSERT INTO temp.src VALUES (%s)" % ", ".join("?" * len(columns)), rows)
    path.parent.mkdir(parents=True, exist_ok=True)
    db.execute("SELECT parquet_copy('SELECT * FROM temp.src', ?)", (str(path),))
    return path.stat().st_size


def synthetic(extension, seed, queries):
    """A table written by tests/lake/iceberg_writer.py: 12 data manifests of 4 files (one
    partition value p per file, from the manifests), position delete files for every third
    file, partition-scoped equality deletes on x (one naming a value of another partition,
    which must not apply), a global equality delete on y (NULL and 'v3'), and a data file
    added after the deletes (sequence 3: no delete of sequence 2 applies to it, not even a
    position delete naming it). Checks the rows against the ones the spec leaves, the
    manifest pruning counts of a partition filter, and `queries` random WHERE clauses
    against a native table of those rows. Returns the failures."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import iceberg_writer as w
    import pathlib
    import shutil
    import tempfile
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="pq-iceberg-"))
    failures = []
    try:
        db = connect(extension)
        table = tmp / "t"
        N, M, R = 12, 4, 25
        columns = [("x", "INTEGER"), ("y", "TEXT"), ("z", "REAL")]
        live = {}  # (p, position) -> row
        data_manifests, position_files, equality_files = [], [], []

        def row(x):
            return (x, None if x % 11 == 0 else "v%d" % (x % 7), None if x % 5 == 0 else x * 0.5)

        def data_file(i, sequence_rows):
            path = table / "data" / ("p=%d" % i) / "part-0.parquet"
            rows = [row(x) for x in sequence_rows]
            size = copy_rows(db, rows, columns, path)
            ys = [r[1] for r in rows if r[1] is not None]
            bounds = {1: (w.long_bound(min(r[0] for r in rows)), w.long_bound(max(r[0] for r in rows)))}
            if ys:
                bounds[2] = (min(ys).encode(), max(ys).encode())
            nulls = {1: 0, 2: sum(r[1] is None for r in rows), 3: sum(r[2] is None for r in rows)}
            for k, r in enumerate(rows):
                live[(i, k)] = r + (i,)
            return w.File(path, len(rows), size, p=i, bounds=bounds, null_counts=nulls), rows

        for m in range(N):
            files = []
            for f in range(M):
                i = m * M + f
                entry, rows = data_file(i, range(i * R, i * R + R))
                files.append(entry)
                if i % 3 == 0:
                    positions = [0, 5, 7]
                    path = table / "deletes" / ("pos-%d.parquet" % i)
                    size = copy_rows(db, [(entry.path, k) for k in positions], [("file_path", "TEXT"), ("pos", "INTEGER")], path)
                    position_files.append(w.File(path, len(positions), size, p=i, content=1))
                    for k in positions:
                        live.pop((i, k), None)
                if i % 4 == 1:
                    keys = [i * R + 1, i * R + 2, (i + 1) * R + 3]  # the last one is another partition's
                    path = table / "deletes" / ("eq-%d.parquet" % i)
                    size = copy_rows(db, [(k,) for k in keys], [("x", "INTEGER")], path)
                    equality_files.append(w.File(path, len(keys), size, p=i, content=2, equality_ids=[1]))
                    for k in (1, 2):
                        live.pop((i, k), None)
            data_manifests.append(w.Manifest(files))
        # The global equality delete on y: NULL equals NULL.
        path = table / "deletes" / "eq-y.parquet"
        size = copy_rows(db, [(None,), ("v3",)], [("y", "TEXT")], path)
        global_eq = w.File(path, 2, size, content=2, equality_ids=[2])
        for key in [k for k, r in live.items() if r[1] is None or r[1] == "v3"]:
            del live[key]
        # A data file of sequence 3, after the deletes: they do not apply to it.
        late, late_rows = data_file(999, range(100000, 100000 + R))
        path = table / "deletes" / "pos-late.parquet"
        size = copy_rows(db, [(late.path, 0), (late.path, 1)], [("file_path", "TEXT"), ("pos", "INTEGER")], path)
        late_position = w.File(path, 2, size, p=999, content=1)
        manifests = data_manifests + [
            w.Manifest(position_files + equality_files + [late_position], content=1, sequence_number=2, snapshot_id=2),
            w.Manifest([global_eq], content=1, spec_id=1, sequence_number=2, snapshot_id=2),
            w.Manifest([late], sequence_number=3, snapshot_id=3)]
        w.write_table(table, manifests, [(1, "x", "long"), (2, "y", "string"), (3, "z", "double")])
        expected = sorted(live.values(), key=repr)

        db.execute("CREATE VIRTUAL TABLE t USING parquet(?)".replace("?", "'%s'" % str(table).replace("'", "''")))
        got = sorted(db.execute("SELECT x, y, z, p FROM t").fetchall(), key=repr)
        if got != expected:
            failures.append("synthetic table: %d rows, expected %d" % (len(got), len(expected)))
        if db.execute("SELECT count(*) FROM t").fetchone()[0] != len(expected):
            failures.append("synthetic table: count(*) differs")
        deleted = db.execute("SELECT rows_deleted FROM parquet_scan_stats('t')").fetchone()[0]
        physical = N * M * R + R
        if deleted != physical - len(expected):
            failures.append("synthetic table: rows_deleted %d, expected %d" % (deleted, physical - len(expected)))
        # A partition filter: the other 11 data manifests and the late one are skipped by
        # their partition summaries, with their files, before any file is tested.
        one = db.execute("SELECT count(*) FROM t WHERE p = 17").fetchone()[0]
        stats = db.execute("SELECT manifests_total, manifests_pruned, files_pruned_by_manifest, files_opened "
                           "FROM parquet_scan_stats('t')").fetchone()
        if one != sum(1 for r in expected if r[3] == 17) or stats != (N + 1, N, (N - 1) * M + 1, 1):
            failures.append("synthetic table: p = 17 gave %d rows, stats %s (want manifests %d, pruned %d, "
                            "files by manifest %d, opened 1)" % (one, stats, N + 1, N, (N - 1) * M + 1))
        # Random filters against a native table of the rows the spec leaves.
        db.execute("CREATE TABLE native(x INTEGER, y TEXT, z REAL, p INTEGER)")
        db.executemany("INSERT INTO native VALUES (?, ?, ?, ?)", expected)
        rng = random.Random(seed)
        names = ["x", "y", "z", "p"]
        for _ in range(queries):
            terms = []
            for _ in range(rng.randint(1, 3)):
                column = rng.choice(names)
                op = rng.choice(["=", "<", ">", "<=", ">=", "!=", "IS NULL", "IS NOT NULL", "BETWEEN", "IN"])
                if op.startswith("IS"):
                    terms.append("%s %s" % (column, op))
                    continue
                value = rng.choice(expected)[names.index(column)]
                if value is None or rng.random() < 0.2:
                    value = {"x": rng.randint(-5, 100100), "y": "v%d" % rng.randint(0, 8), "z": rng.uniform(-1, 50000),
                             "p": rng.randint(-1, 1000)}[column]
                literal = repr(value) if not isinstance(value, str) else "'%s'" % value
                if op == "BETWEEN":
                    terms.append("%s BETWEEN %s AND %s" % (column, literal, literal if isinstance(value, str) else repr(value + rng.randint(0, 60))))
                elif op == "IN":
                    terms.append("%s IN (%s, %s)" % (column, literal, literal))
                else:
                    terms.append("%s %s %s" % (column, op, literal))
            where = (" AND " if rng.random() < 0.6 else " OR ").join(terms)
            got = sorted(db.execute("SELECT x, y, z, p FROM t WHERE " + where).fetchall(), key=repr)
            want = sorted(db.execute("SELECT x, y, z, p FROM native WHERE " + where).fetchall(), key=repr)
            if got != want:
                failures.append("synthetic table WHERE %s: %d rows, native %d (seed %d)" % (where, len(got), len(want), seed))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return failures


# Partition transforms of the transform tables: (transform, source column), a query whose
# files the partition values rule out (some of them), and whether that query must skip
# whole manifests by their partition summaries too.
TRANSFORM_CASES = [
    ("bucket[8]", "i", "i = 17", True), ("bucket[8]", "s", "s = 'ab'", True),
    ("bucket[5]", "d", "d = '1970-01-01'", True), ("truncate[10]", "i", "i BETWEEN -35 AND -21", True),
    ("truncate[2]", "s", "s >= 'zz'", True), ("year", "d", "d < '1968-01-01'", True),
    ("month", "d", "d = '1969-12-31'", True), ("day", "d", "d > '1972-01-01'", True),
    ("year", "ts", "ts >= '1970-01-02'", False), ("month", "ts", "ts < '1969-12-31 23:00'", False),
    ("day", "ts", "ts = '1970-01-01 05:00:00'", True), ("hour", "ts", "ts <= '1969-12-31 12'", True),
    ("bucket[6]", "ts", "ts = '1970-01-01 00:00:00'", True),
    ("void", "i", "i = 17", False),
]


def transform_tables(extension, seed, queries):
    """Tables written by tests/lake/iceberg_writer.py partitioned by each transform of
    TRANSFORM_CASES on a column of the data files (i long, s string with unicode, d date,
    ts timestamp; values around 1970 on both sides of the epoch, NULLs), without column
    bounds in the manifests (so only the partition values prune): one data file per
    partition value, 3 per manifest, a position delete file for every third file and a
    global equality delete on i. Checks the rows, that the case's query skips files (and
    manifests) by their partition values and summaries (void: none), and `queries` random
    WHERE clauses against a native table of the rows the deletes leave. Returns the
    failures."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import datetime
    import iceberg_writer as w
    import pathlib
    import shutil
    import tempfile
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="pq-iceberg-transforms-"))
    rng = random.Random(seed)
    failures = []
    epoch = datetime.datetime(1970, 1, 1)
    strings = ["", "a", "ab", "abc", "abd", "b", "zz", "zzz", "\u00e9t\u00e9", "\u00e9", "\u65e5\u672c", "z\U0001F600", "Z"]

    def random_row():
        i = None if rng.random() < 0.05 else rng.randint(-60, 60)
        text = None if rng.random() < 0.05 else rng.choice(strings)
        days = None if rng.random() < 0.05 else rng.choice([rng.randint(-800, 800), rng.randint(-3, 3)])
        micros = None
        if rng.random() >= 0.05:
            micros = rng.randint(-40 * 3600, 40 * 3600) * 1000000 + rng.choice([0, 0, 500000, 123456, 1])
            if rng.random() < 0.1:
                micros = rng.choice([0, -1, 86400000000 - 1, 86400000000, -3600000000])
        return (i, text, days, micros)

    def shown_date(days):
        return None if days is None else (datetime.date(1970, 1, 1) + datetime.timedelta(days=days)).isoformat()

    def shown_ts(micros):
        if micros is None:
            return None
        t = epoch + datetime.timedelta(microseconds=micros)
        text = t.strftime("%Y-%m-%d %H:%M:%S")
        if t.microsecond:
            text += ("." + "%06d" % t.microsecond).rstrip("0")
        return text

    columns = [("i", "INTEGER"), ("s", "TEXT"), ("d", "DATE"), ("ts", "TIMESTAMP")]
    kinds = {"i": "long", "s": "string", "d": "date", "ts": "timestamp"}
    try:
        db = connect(extension)
        for number, (transform, source, pruned_query, by_manifest) in enumerate(TRANSFORM_CASES):
            table = tmp / ("t%d" % number)
            source_index = [c[0] for c in columns].index(source)
            rows = [random_row() for _ in range(240)]
            by_value = {}
            for r in rows:
                by_value.setdefault(w.transform_value(transform, kinds[source], r[source_index]), []).append(r)
            keys = sorted((k for k in by_value if k is not None), key=lambda k: (k.encode() if isinstance(k, str) else k))
            if None in by_value:
                keys.append(None)
            kind = "string" if source == "s" and transform.startswith("truncate") else "int"
            if source == "i" and transform.startswith("truncate"):
                kind = "long"
            spec = [w.PartitionField("part", 1 + source_index, transform, kind)]
            live, files, position_files = [], [], []
            for n, key in enumerate(keys):
                file_rows = by_value[key]
                path = table / "data" / ("f%d.parquet" % n)
                shown = [(r[0], r[1], shown_date(r[2]), shown_ts(r[3])) for r in file_rows]
                size = copy_rows(db, shown, columns, path)
                entry = w.File(path, len(file_rows), size, partition=(key,))
                files.append(entry)
                deleted = set()
                if n % 3 == 0:
                    deleted = {0}
                    dpath = table / "deletes" / ("pos-%d.parquet" % n)
                    dsize = copy_rows(db, [(entry.path, 0)], [("file_path", "TEXT"), ("pos", "INTEGER")], dpath)
                    position_files.append(w.File(dpath, 1, dsize, content=1, partition=(key,)))
                live += [r for k, r in enumerate(shown) if k not in deleted and r[0] not in (7, 13)]
            manifests = [w.Manifest(files[k:k + 3]) for k in range(0, len(files), 3)]
            epath = table / "deletes" / "eq-i.parquet"
            esize = copy_rows(db, [(7,), (13,)], [("i", "INTEGER")], epath)
            manifests.append(w.Manifest(position_files, content=1, sequence_number=2, snapshot_id=2))
            manifests.append(w.Manifest([w.File(epath, 2, esize, content=2, equality_ids=[1])], content=1, spec_id=1,
                                        sequence_number=2, snapshot_id=2))
            w.write_table(table, manifests, [(1, "i", "long"), (2, "s", "string"), (3, "d", "date"), (4, "ts", "timestamp")],
                          spec=spec)
            name = "x%d" % number
            label = "%s(%s)" % (transform, source)
            db.execute("CREATE VIRTUAL TABLE %s USING parquet('%s')" % (name, str(table).replace("'", "''")))
            db.execute("CREATE TABLE native_%s(i INTEGER, s TEXT, d TEXT, ts TEXT)" % name)
            db.executemany("INSERT INTO native_%s VALUES (?, ?, ?, ?)" % name, live)
            got = sorted(db.execute("SELECT * FROM %s" % name).fetchall(), key=repr)
            if got != sorted(live, key=repr):
                failures.append("transform table %s: %d rows, expected %d" % (label, len(got), len(live)))
                continue
            got = sorted(db.execute("SELECT * FROM %s WHERE %s" % (name, pruned_query)).fetchall(), key=repr)
            want = sorted(db.execute("SELECT * FROM native_%s WHERE %s" % (name, pruned_query)).fetchall(), key=repr)
            stats = db.execute("SELECT manifests_pruned, files_pruned_by_manifest, files_pruned_by_lake_statistics "
                               "FROM parquet_scan_stats('%s')" % name).fetchone()
            if got != want:
                failures.append("transform table %s WHERE %s: %d rows, native %d" % (label, pruned_query, len(got), len(want)))
            text_pushed = tuple(int(x) for x in sqlite3.sqlite_version.split(".")[:2]) >= (3, 38)
            if source != "i" and not text_pushed:
                pass  # below SQLite 3.38 no text comparison reaches the table: nothing to prune
            elif transform == "void":
                if stats != (0, 0, 0):
                    failures.append("transform table %s: void pruned %s" % (label, stats))
            elif stats[1] + stats[2] == 0 or (by_manifest and stats[0] == 0):
                failures.append("transform table %s WHERE %s: nothing pruned (manifests pruned, files by manifest, "
                                "files by partition values: %s)" % (label, pruned_query, stats))
            values = {c: sorted({r[k] for r in live if r[k] is not None}) for k, (c, _) in enumerate(columns)}
            extra = {"i": [-61, 0, 5, 61], "s": ["", "a", "ab", "zz", "\u00e9", "\uffff"],
                     "d": ["1969-12-31", "1970-01-01", "1968", "1971-02-28"],
                     "ts": ["1970-01-01", "1969-12-31 23", "1970-01-01T00:00:00", "1970-01-01 00:00:00.000000", "1970-01-01 00:00:00", "1970-01-01 05:00:00.5", "1970-01-02 16",
                            "1969-12-31 23:59:59.999999", "1970-01-01 00:59:59.999999999", "1970-01-01 23:59:59.9999999999",
                            "1969-12-31 23:00:00", "1970-01-01 00:00:00.000001"]}
            for _ in range(queries):
                terms = []
                for _ in range(rng.randint(1, 2)):
                    column = rng.choice([source, source, "i", "s", "d", "ts"])
                    op = rng.choice(["=", "=", "IN", "<", ">", "<=", ">=", "!=", "BETWEEN", "IS NULL", "IS NOT NULL"])
                    if op.startswith("IS"):
                        terms.append("%s %s" % (column, op))
                        continue
                    pool = values[column] + extra[column] if values[column] and rng.random() < 0.8 else extra[column]
                    literal = lambda v: repr(v) if isinstance(v, int) else "'%s'" % v.replace("'", "''")
                    a, b = rng.choice(pool), rng.choice(pool)
                    if op == "IN":
                        terms.append("%s IN (%s, %s)" % (column, literal(a), literal(b)))
                    elif op == "BETWEEN":
                        terms.append("%s BETWEEN %s AND %s" % (column, literal(min(a, b)), literal(max(a, b))))
                    else:
                        terms.append("%s %s %s" % (column, op, literal(a)))
                where = (" AND " if rng.random() < 0.7 else " OR ").join(terms)
                got = sorted(db.execute("SELECT * FROM %s WHERE %s" % (name, where)).fetchall(), key=repr)
                want = sorted(db.execute("SELECT * FROM native_%s WHERE %s" % (name, where)).fetchall(), key=repr)
                if got != want:
                    failures.append("transform table %s WHERE %s: %d rows, native %d (seed %d)"
                                    % (label, where, len(got), len(want), seed))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--extension", required=True)
    parser.add_argument("--lake", default="../shared/lake")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--seed", type=int, default=None, help="the synthetic table's random filters")
    parser.add_argument("--queries", type=int, default=400, help="random filters on the synthetic table")
    args = parser.parse_args()
    # The version matrix (scripts/run_matrix.sh) runs this suite with another libsqlite3 first
    # on LD_LIBRARY_PATH: Python's sqlite3 module must be running that one.
    expected = os.environ.get("SQLITE_EXPECTED_VERSION")
    if expected and sqlite3.sqlite_version != expected:
        print(f"iceberg conformance: expected SQLite {expected}, python3 runs {sqlite3.sqlite_version}\n0 passed, 1 failed")
        return 1
    data = os.path.join(args.lake, "iceberg", "duckdb-iceberg")
    tests = os.path.join(args.lake, "iceberg", "duckdb-iceberg-tests")
    files = []
    for root, _, names in os.walk(tests):
        files += [os.path.join(root, n) for n in names if n.endswith(".test")]
    files.sort()
    passed = failed = untranslatable = known = 0
    differential_runs = [0]
    for path in files:
        rel = os.path.relpath(path, tests)
        for number, types, sort, sql, expected in parse_tests(path):
            if "iceberg_scan" not in sql.lower():
                continue
            if re.search(r"\bfilename\b|\bfile_row_number\b", sql, re.IGNORECASE):
                untranslatable += 1  # DuckDB's virtual columns
                continue
            key = "%s:%d" % (rel, number)
            db = sqlite3.connect(":memory:")
            db.enable_load_extension(True)
            db.load_extension(args.extension)
            counter = [0]
            try:
                query = translate(sql, data, db, counter)
            except ValueError as e:
                untranslatable += 1
                if args.verbose:
                    print("untranslatable %s: %s" % (key, e))
                continue
            except sqlite3.Error as e:
                query = None
                error = str(e)
            if query is None:
                if key in KNOWN:
                    known += 1
                    continue
                failed += 1
                print("FAIL %s: creating the table: %s" % (key, error))
                continue
            if "__ALL__" in query:
                query = query.replace("__ALL__", ", ".join(str(i + 1) for i in range(len(types))))
            try:
                cursor = db.execute(query)
                rows = cursor.fetchall()
            except sqlite3.Error as e:
                message = str(e)
                if "syntax error" in message or "no such function" in message or "no such column" in message or "unrecognized token" in message:
                    untranslatable += 1
                    if args.verbose:
                        print("untranslatable %s: %s" % (key, message))
                    continue
                if key in KNOWN:
                    known += 1
                    continue
                failed += 1
                print("FAIL %s: %s\n  %s" % (key, message, query))
                continue
            got = ["\t".join(normal(shown(v)) for v in row) for row in rows]
            want = ["\t".join(normal(v) for v in line.split("\t")) for line in expected]
            ordered = re.search(r"order\s+by", sql, re.IGNORECASE) and sort != "rowsort"
            same = rows_equal(got, want, ordered)
            if same and len(counter) == 2 and re.match(r"\s*select\s+\*?", sql, re.IGNORECASE) and \
                    not re.search(r"\bwhere\b", sql, re.IGNORECASE) and re.search(r"select\s+\*\s+from", sql, re.IGNORECASE):
                # A full scan that matched: random filters on it must match a native copy.
                rng = random.Random(key)
                problems = differential(db, counter[1][0], rng)
                differential_runs[0] += 1
                for problem in problems:
                    print("FAIL %s differential: %s" % (key, problem))
                if problems:
                    failed += 1
                    continue
            if same:
                passed += 1
                if key in KNOWN:
                    print("FAIL %s: listed in KNOWN but passes" % key)
                    failed += 1
                continue
            if key in KNOWN:
                known += 1
                continue
            failed += 1
            print("FAIL %s: %s\n  want %s\n  got  %s" % (key, query, want[:6], got[:6]))
    impala = os.path.join(args.lake, "iceberg", "impala")
    for table, query, expected in IMPALA:
        db = sqlite3.connect(":memory:")
        db.enable_load_extension(True)
        db.load_extension(args.extension)
        try:
            db.execute("CREATE VIRTUAL TABLE t USING parquet('%s', allow_moved_paths=1)" % os.path.join(impala, table))
            got = ["\t".join(normal(shown(v)) for v in row) for row in db.execute(query)]
        except sqlite3.Error as e:
            got = ["error: " + str(e)]
        if got == expected:
            passed += 1
        else:
            failed += 1
            print("FAIL impala %s: %s\n  want %s\n  got  %s" % (table, query, expected, got))
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    per_transform = max(args.queries // 8, 10)
    for problems, summary in (
            (synthetic(args.extension, seed, args.queries),
             "synthetic table with deletes: %d random filters against a native table (seed %d)" % (args.queries, seed)),
            (transform_tables(args.extension, seed, per_transform),
             "transform tables (%d, every partition transform, with deletes): %d random filters each against a native "
             "table (seed %d)" % (len(TRANSFORM_CASES), per_transform, seed))):
        for problem in problems:
            print("FAIL " + problem)
        if problems:
            failed += 1
        else:
            passed += 1
        print(summary + ("" if problems else ", ok"))
    print("iceberg conformance: %d passed, %d failed, %d known differences, %d not translatable; "
          "%d tables checked by random filters against a native copy"
          % (passed, failed, known, untranslatable, differential_runs[0]))
    if differential_runs[0] < 10:
        print("FAIL fewer than 10 tables checked by random filters")
        failed += 1
    if passed < MIN_PASSED:
        print("FAIL fewer than %d queries passed" % MIN_PASSED)
        failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
