"""Python side of tests/dist: run in a fresh venv into which dist/*.whl was pip-installed.
Checks the package's API and runs real queries and a parquet_copy through the sqlite3
module. Prints one "ok"/"FAIL" line per check and ends with "N passed, M failed".

    python python_test.py VERSION_FILE WORKDIR
"""
import json
import os
import sqlite3
import sys

version_file, workdir = sys.argv[1], sys.argv[2]
passed = failed = 0


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok   python: {name}")
    else:
        failed += 1
        print(f"FAIL python: {name} {detail}")


try:
    import sqlite_parquet

    with open(version_file, encoding="utf-8") as f:
        expected_version = f.read().strip()
    check("__version__ is the VERSION file's", sqlite_parquet.__version__ == expected_version,
          f"{sqlite_parquet.__version__!r} != {expected_version!r}")
    path = sqlite_parquet.loadable_path()
    check("loadable_path() is the installed parquet.so", os.path.isfile(path) and
          path.startswith(sys.prefix) and path.endswith("parquet.so"), path)

    conn = sqlite3.connect(":memory:")
    sqlite_parquet.load(conn)
    info = json.loads(conn.execute("SELECT parquet_version()").fetchone()[0])
    check("parquet_version() matches the package", info["version"] == sqlite_parquet.__version__
          and info["linkage"] == "static" and info["sqlite_library"] == sqlite3.sqlite_version, info)

    conn.execute("CREATE TABLE orders(id INTEGER, customer TEXT, amount REAL)")
    rows = [(i, f"customer {i % 7}", i * 1.25) for i in range(1000)]
    conn.executemany("INSERT INTO orders VALUES (?, ?, ?)", rows)
    out = os.path.join(workdir, "orders.parquet")
    written = conn.execute("SELECT parquet_copy('SELECT * FROM orders', ?, 'compression=zstd')",
                           (out,)).fetchone()[0]
    check("parquet_copy writes every row", written == len(rows) and os.path.getsize(out) > 0, written)

    conn.execute("CREATE VIRTUAL TABLE back USING parquet(?)".replace("?", "'" + out.replace("'", "''") + "'"))
    query = "SELECT customer, count(*), sum(amount) FROM {} WHERE id >= 100 GROUP BY customer ORDER BY customer"
    check("the copy reads back with the same groups",
          conn.execute(query.format("back")).fetchall() == conn.execute(query.format("orders")).fetchall())
    codecs = {row[0] for row in conn.execute(
        "SELECT DISTINCT compression FROM parquet_metadata(?)", (out,))}
    check("the copy is zstd-compressed", codecs == {"ZSTD"}, codecs)
except Exception as error:  # any exception is a failure of the package, reported as one
    check("no exception", False, repr(error))

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
