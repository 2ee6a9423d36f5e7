"""What the Python-driven hosts of tests/hosts share: the cases of cases.json expanded into
queries, and the ok/FAIL/SKIP lines that run.sh counts."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = json.load(open(os.path.join(HERE, "cases.json")))


class Report:
    """Prints one line per check: "ok NAME", "FAIL NAME: detail" or "SKIP NAME: reason"."""

    def __init__(self, host):
        self.host = host
        self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            print(f"ok {self.host}: {name}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL {self.host}: {name}: {detail}", flush=True)
        return ok

    def skip(self, name, reason):
        print(f"SKIP {self.host}: {name}: {reason}", flush=True)

    def exit(self):
        sys.exit(1 if self.failed else 0)


def setup_sql(parquet_path):
    """SQL that makes src, writes it with parquet_copy and opens it as the table t."""
    quoted = parquet_path.replace("'", "''")
    return [CASES["create"],
            "INSERT INTO src VALUES " + ", ".join(CASES["rows"]),
            f"SELECT parquet_copy('SELECT * FROM src', '{quoted}')",
            f"CREATE VIRTUAL TABLE t USING parquet('{quoted}')"]


def python_value(param):
    """The parameter as the Python value sqlite3 binds with its type."""
    return bytes.fromhex(param["value"]) if param["type"] == "blob" else param["value"]


def sql_literal(param):
    """The parameter as an SQL literal of its type."""
    kind, value = param["type"], param["value"]
    if kind == "null":
        return "NULL"
    if kind == "blob":
        return f"x'{value}'"
    if kind == "text":
        return "'" + value.replace("'", "''") + "'"
    return repr(float(value)) if kind == "real" else str(value)


def comparisons():
    """(name, sql on t, sql on src, param) for every where clause, column and parameter."""
    for param in CASES["params"]:
        for column in CASES["columns"]:
            for where in CASES["wheres"]:
                clause = where.format(c=column)
                name = f"{clause} with :v = {sql_literal(param)} ({param['type']})"
                yield (name, CASES["select"].format(table="t", where=clause),
                       CASES["select"].format(table="src", where=clause), param)
