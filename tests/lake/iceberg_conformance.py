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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--extension", required=True)
    parser.add_argument("--lake", default="../shared/lake")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
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
