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
import os
import sqlite3
import sys

# Tables without expected/: ("rows", N) reads N rows; ("error", text) fails with an error
# containing text. How each was checked is in docs/lake-tables.md ("Conformance").
NO_EXPECTED = {
    # The same table with paths written as file: URIs in different spellings (a, b) and
    # with characters that need escaping: the log's paths point where Spark wrote them.
    "canonicalized-paths-normal-a": ("error", "outside the table's directory"),
    "canonicalized-paths-normal-b": ("error", "outside the table's directory"),
    "canonicalized-paths-special-a": ("error", "outside the table's directory"),
    "canonicalized-paths-special-b": ("error", "outside the table's directory"),
    "checkpoint": ("rows", None),
    "data-reader-absolute-paths-escaped-chars": ("error", "outside the table's directory"),
    "delete-re-add-same-file-different-transactions": ("rows", None),
    "deltalog-commit-info": ("rows", None),
    "deltalog-invalid-protocol-version": ("error", "reader version"),
    "deltalog-state-reconstruction-from-checkpoint-missing-metadata": ("error", "no metaData"),
    "deltalog-state-reconstruction-from-checkpoint-missing-protocol": ("error", "no protocol"),
    "deltalog-state-reconstruction-without-metadata": ("error", "no metaData"),
    "deltalog-state-reconstruction-without-protocol": ("error", "no protocol"),
    "hive": ("error", "no _delta_log"),
    "log-replay-special-characters-b": ("rows", None),
    "no-delta-log-folder": ("error", "not a Delta table"),
    "update-deleted-directory": ("rows", None),
    "versions-not-contiguous": ("error", "missing version"),
}


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
    if expect is None and not os.path.isdir(os.path.join(root, "expected")):
        return False, "no expected/ and not listed in NO_EXPECTED"
    try:
        db.execute("CREATE VIRTUAL TABLE t USING parquet(?)".replace("?", "'" + table_dir.replace("'", "''") + "'"))
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
    return True, f"{sum(got.values())} rows match"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--extension", required=True)
    parser.add_argument("--lake", default="../shared/lake")
    parser.add_argument("--only")
    args = parser.parse_args()
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
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
