#!/usr/bin/python3
"""Listing a hive dataset on S3 for a query of one month (issue 40, part 2): the remote suite's
dataset of 10,080 objects in year=/month=/day= directories (tests/remote/remote_test.py's
make_s3_hive_dataset, written into s3rver's storage), read through test_server.mjs's plain
port to s3rver, which answers every request 50 ms late (--s3-delay) and logs it.

A table stored in a database file (created by another connection) is queried from a new
connection for WHERE year = 2020 AND month = 3: once with `filename = ''` added (every file
pruned: the time and requests of the listing alone), once for its rows (listing and the 84
files' footers and pages). The listing requests are counted in the server's log, so a build
without parquet_scan_stats' list_requests (one from before the change) is measured alike.

With --baseline DIR (another build, e.g. one from before a change), both builds are measured
in one run, alternating query by query, and so is "create_and_month": CREATE over
s3://bkt/many/**/*.parquet and the one-month query in one new connection (issue 49: CREATE
lists up to the first file only; before it listed all 10,080 objects).

usage: bench/hive_listing_bench.py [--build build] [--baseline DIR] [--delay 50] [--runs 2]
"""
import argparse
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "remote"))
import remote_test  # noqa: E402  (the suite's servers, dataset and helpers)


def measure(extensions, direct_port, bucket_dir, runs):
    """Each query for each build (alternating), best time of `runs`."""
    objects, rows = remote_test.make_s3_hive_dataset(extensions[0][1], bucket_dir, "many")
    results = {"objects": objects}
    for _ in range(runs):
        for label, extension in extensions:
            for name, result in measure_once(extension, direct_port, bucket_dir, label).items():
                key = f"{name}:{label}" if len(extensions) > 1 else name
                if key not in results or result["seconds"] < results[key]["seconds"]:
                    results[key] = result
    return results


def measure_once(extension, direct_port, bucket_dir, label):
    creds = (f", s3_endpoint='http://127.0.0.1:{direct_port}', s3_access_key_id='S3RVER', "
             "s3_secret_access_key='S3RVER'")
    path = bucket_dir.parent / f"stored-{label}.db"
    if path.exists():
        path.unlink()
    writer = extension.connect(str(path))
    writer.execute(f"CREATE VIRTUAL TABLE stored USING parquet('s3://bkt/many/'{creds})")
    writer.close()
    results = {}
    queries = {"listing_only": "SELECT count(*) FROM stored WHERE year = 2020 AND month = 3 AND filename = ''",
               "one_month": "SELECT count(*), sum(v) FROM stored WHERE year = 2020 AND month = 3"}
    for name, query in queries.items():
        db = extension.connect(str(path))
        before = len(remote_test.direct_log())
        started = time.monotonic()
        got = db.execute(query).fetchall()
        seconds = time.monotonic() - started
        log = remote_test.direct_log()[before:]
        stats = remote_test.scan_stats(db, "stored")
        results[name] = {"rows": got, "seconds": round(seconds, 3),
                         "list_requests": sum(1 for e in log if e["method"] == "GET" and "list-type=2" in e["url"]),
                         "requests": len(log), "objects_listed": stats.get("objects_listed", "not counted by this build")}
        db.close()
    db = extension.connect()
    before = len(remote_test.direct_log())
    started = time.monotonic()
    db.execute(f"CREATE VIRTUAL TABLE temp.fresh USING parquet('s3://bkt/many/**/*.parquet'{creds})")
    got = db.execute(queries["one_month"].replace("stored", "temp.fresh")).fetchall()
    seconds = time.monotonic() - started
    log = remote_test.direct_log()[before:]
    stats = remote_test.scan_stats(db, "fresh")
    results["create_and_month"] = {"rows": got, "seconds": round(seconds, 3),
                                   "list_requests": sum(1 for e in log if e["method"] == "GET" and "list-type=2" in e["url"]),
                                   "requests": len(log), "objects_listed_by_scan": stats.get("objects_listed")}
    db.close()
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--baseline", help="another build directory, measured alternately in the same run")
    parser.add_argument("--delay", default="50", help="milliseconds each S3 answer is delayed")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    extensions = [("build", remote_test.Extension(str(pathlib.Path(args.build).resolve() / "parquet")))]
    if args.baseline:
        extensions.insert(0, ("baseline", remote_test.Extension(str(pathlib.Path(args.baseline).resolve() / "parquet"))))
    subprocess.run(["bash", str(ROOT / "scripts/install_node_packages.sh"), str(ROOT / "tests/remote"), "s3rver", "bench"],
                   check=True, stdout=subprocess.DEVNULL)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="hive-listing-bench-"))
    processes = []
    try:
        fault_port, s3rver_port, direct_port = remote_test.free_port(), remote_test.free_port(), remote_test.free_port()
        remote_test.FAULT_PORT = fault_port
        (tmp / "data").mkdir()
        s3rver = subprocess.Popen(["node", "--openssl-legacy-provider", str(ROOT / "tests/remote/node_modules/s3rver/bin/s3rver.js"),
                                   "-d", str(tmp / "s3"), "-a", "127.0.0.1", "-p", str(s3rver_port), "--silent",
                                   "--configure-bucket", "bkt"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                  env=remote_test.child_env())
        processes.append(s3rver)
        server = subprocess.Popen(["node", str(ROOT / "tests/remote/test_server.mjs"), "--data", str(tmp / "data"),
                                   "--port", str(fault_port), "--s3-upstream", f"http://127.0.0.1:{s3rver_port}",
                                   "--s3-direct-port", str(direct_port), "--s3-delay", args.delay],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=remote_test.child_env())
        processes.append(server)
        remote_test.wait_for_port(fault_port, server, "test_server.mjs", "/dev/null")
        remote_test.wait_for_port(s3rver_port, s3rver, "s3rver", "/dev/null")
        remote_test.wait_for_port(direct_port, server, "test_server.mjs", "/dev/null")
        results = measure(extensions, direct_port, tmp / "s3" / "bkt", args.runs)
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
    results["build"] = args.build
    results["baseline"] = args.baseline
    results["delay_ms"] = int(args.delay)
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
