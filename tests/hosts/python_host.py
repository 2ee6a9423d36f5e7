"""Python's sqlite3 module (Debian's /usr/bin/python3, its system SQLite) as a host: loads
the extension, compares the parquet table with the native one for parameters of every type
bound with ?-style placeholders, writes with parquet_copy and reads back, and interrupts a
long scan with Connection.interrupt() from a timer thread.
Usage: python_host.py EXTENSION_PATH"""
import os
import sqlite3
import sys
import tempfile
import threading
import time

from hosts import CASES, Report, comparisons, python_value, setup_sql

report = Report(f"python {sys.version.split()[0]} sqlite {sqlite3.sqlite_version}")
extension = sys.argv[1]
with tempfile.TemporaryDirectory() as tmp:
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    if not hasattr(conn, "enable_load_extension"):
        report.check("load", False, "this Python was built without --enable-loadable-sqlite-extensions")
        report.exit()
    conn.enable_load_extension(True)
    conn.load_extension(extension)
    path = os.path.join(tmp, "t.parquet")
    for sql in setup_sql(path):
        conn.execute(sql)
    rows = conn.execute("SELECT count(*) FROM t").fetchone()[0]
    report.check("parquet_copy writes src and t reads it back",
                 rows == len(CASES["rows"]) and
                 conn.execute("SELECT count(*) FROM (SELECT * FROM t EXCEPT SELECT * FROM src)").fetchone()[0] == 0,
                 f"{rows} rows read back")

    for name, on_parquet, on_native, param in comparisons():
        value = {"v": python_value(param)}
        try:
            got = conn.execute(on_parquet, value).fetchone()[0]
            want = conn.execute(on_native, value).fetchone()[0]
            report.check(name, got == want, f"parquet {got!r}, native {want!r}")
        except sqlite3.Error as error:
            report.check(name, False, str(error))

    # A scan far longer than the test, stopped by Connection.interrupt() from another thread.
    timer = threading.Timer(0.5, conn.interrupt)
    started = time.monotonic()
    timer.start()
    try:
        conn.execute(CASES["long_scan"]).fetchone()
        report.check("interrupt() stops a long scan", False, "the scan finished")
    except sqlite3.OperationalError as error:
        took = time.monotonic() - started
        report.check("interrupt() stops a long scan", "interrupted" in str(error) and took < 5,
                     f"{error} after {took:.1f}s")
    timer.join()
    conn.close()
report.exit()
