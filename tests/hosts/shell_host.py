"""A sqlite3 shell as a host: loads the extension with .load, compares the parquet table with
the native one for parameters of every type bound with .parameter set, writes with
parquet_copy and reads back, and interrupts a long scan with SIGINT (Ctrl-C: the shell calls
sqlite3_interrupt). A shell older than the oldest supported SQLite must refuse the
extension with a message naming both versions.
Usage: shell_host.py SQLITE3_SHELL EXTENSION_PATH"""
import os
import signal
import subprocess
import sys
import tempfile
import time

from hosts import CASES, Report, comparisons, setup_sql, sql_literal

OLDEST_SUPPORTED = (3, 31, 0)  # ext/common/sqlite_api.h, kOldestSupportedSqlite

shell, extension = sys.argv[1], sys.argv[2]


def run_shell(script, timeout=120, options=()):
    done = subprocess.run([shell, "-batch", *options, ":memory:"], input=script, capture_output=True, text=True,
                          timeout=timeout)
    return done.stdout, done.stderr


version = run_shell("SELECT sqlite_version();")[0].strip()
report = Report(f"sqlite3 shell {version} ({shell})")
load = f".load {extension}\n"
if tuple(int(part) for part in version.split(".")) < OLDEST_SUPPORTED:
    out, err = run_shell(load + "SELECT 'loaded';", options=["-bail"])
    wanted = "needs SQLite %d.%d.%d or later; this is SQLite %s" % (*OLDEST_SUPPORTED, version)
    report.check("refuses to load into a too old SQLite, naming both versions",
                 wanted in err and "loaded" not in out, f"stdout {out!r}, stderr {err!r}")
    report.exit()

with tempfile.TemporaryDirectory() as tmp:
    setup = load + ";\n".join(setup_sql(os.path.join(tmp, "t.parquet"))) + ";\n"
    out, err = run_shell(setup + "SELECT count(*) FROM t;\n"
                         "SELECT count(*) FROM (SELECT * FROM t EXCEPT SELECT * FROM src);\n")
    report.check("parquet_copy writes src and t reads it back",
                 out.split("\n")[-3:] == [str(len(CASES["rows"])), "0", ""], f"stdout {out!r}, stderr {err!r}")

    # One shell run for every comparison; '#N' lines separate their outputs.
    cases = list(comparisons())
    script = [setup, ".mode list\n"]
    for n, (_, on_parquet, on_native, param) in enumerate(cases):
        script.append(f".parameter set :v {sql_literal(param)}\nSELECT '#{n}';\n{on_parquet};\n{on_native};\n")
    out, err = run_shell("".join(script), timeout=300)
    results, current = {}, None
    for line in out.split("\n"):
        if line.startswith("#") and line[1:].isdigit():
            current = results.setdefault(int(line[1:]), [])
        elif current is not None and line:
            current.append(line)
    for n, (name, _, _, _) in enumerate(cases):
        got = results.get(n, [])
        report.check(name, len(got) == 2 and got[0] == got[1],
                     f"parquet and native gave {got!r}" + (f"; stderr {err[-300:]!r}" if len(got) != 2 else ""))

    # Ctrl-C during a scan far longer than the test.
    script = os.path.join(tmp, "long_scan.sql")
    with open(script, "w") as f:
        f.write(setup.replace("t.parquet", "long.parquet") + CASES["long_scan"] + ";\n")
    with open(script) as stdin:
        process = subprocess.Popen([shell, "-batch", ":memory:"], stdin=stdin, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    interrupted_at = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=10)
        took = time.monotonic() - interrupted_at
        report.check("SIGINT stops a long scan", "interrupted" in err and took < 5,
                     f"exit {process.returncode} after {took:.1f}s, stderr {err!r}")
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        report.check("SIGINT stops a long scan", False, "the shell still ran 10s after SIGINT")
report.exit()
