"""sqlite-utils (the Debian package's command line) as a host: `sqlite-utils query
--load-extension` writes with parquet_copy into a database file holding the parquet table,
reads it back, and compares the parquet table with the native one for every text parameter
(-p binds text only). It has no way to interrupt a query (Python's sqlite3 module does not
turn Ctrl-C into sqlite3_interrupt): that check is skipped, said so.
Usage: sqlite_utils_host.py SQLITE_UTILS EXTENSION_PATH"""
import json
import os
import subprocess
import sys
import tempfile

from hosts import CASES, Report, comparisons, setup_sql, sql_literal

tool, extension = sys.argv[1], sys.argv[2]
version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout.strip()
report = Report(version or tool)


def query(db, sql, params=()):
    """The rows of sql as dicts, or an error text."""
    command = [tool, "query", db, sql, "--load-extension", extension]
    for name, value in params:
        command += ["-p", name, value]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        return f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
    return json.loads(done.stdout)


with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "hosts.db")
    errors = [r for r in (query(db, sql) for sql in setup_sql(os.path.join(tmp, "t.parquet"))) if isinstance(r, str)]
    back = query(db, "SELECT (SELECT count(*) FROM t) AS n, "
                     "(SELECT count(*) FROM (SELECT * FROM t EXCEPT SELECT * FROM src)) AS differing")
    report.check("parquet_copy writes src and t reads it back",
                 not errors and back == [{"n": len(CASES["rows"]), "differing": 0}], f"{errors} {back}")

    # One process per text parameter: every comparison in one query, side by side.
    by_value = {}
    for name, on_parquet, on_native, param in comparisons():
        if param["type"] == "text":
            by_value.setdefault(param["value"], []).append((name, on_parquet, on_native))
    for value, cases in by_value.items():
        sql = " UNION ALL ".join(f"SELECT {n} AS n, ({p}) AS parquet, ({q}) AS native"
                                 for n, (_, p, q) in enumerate(cases))
        rows = query(db, sql, [("v", value)])
        for n, (name, _, _) in enumerate(cases):
            row = rows[n] if isinstance(rows, list) and n < len(rows) else rows
            report.check(name, isinstance(row, dict) and row["parquet"] == row["native"], f"got {row}")
    report.skip("interrupt a long scan", "sqlite-utils cannot interrupt a query (Python's sqlite3 does not "
                "call sqlite3_interrupt on Ctrl-C); tests/hosts/python_host.py covers Connection.interrupt()")
report.exit()
