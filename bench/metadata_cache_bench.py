#!/usr/bin/python3
"""The persistent metadata cache (metadata_cache=NAME, issue 40 part 3) on a glob of many S3
objects behind a distant bucket: s3rver behind tests/remote/test_server.mjs's SigV4 proxy,
which answers every request --delay ms late (listings included: the proxy pages them by 2
keys). Each query runs in a new process (no footer cached in the process):

  listing only   every file pruned by filename: the listing alone, the same in every run
  uncached       a table without metadata_cache: each object's opening request (a suffix
                 range: size, ETag and the tail with the footer), one object after another
  cached, cold   the first process with metadata_cache (CREATE cached the first footer): the
                 footers are read and stored; opening requests 64 objects ahead, 8 in parallel
  cached, warm   a new process: each object's one request carries If-None-Match with the
                 stored ETag and is answered 304 (no footer byte), 8 in parallel

Requests are counted from the proxy's log. usage:
bench/metadata_cache_bench.py [--build build] [--files 1000] [--delay 50]
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "remote"))
import remote_test  # noqa: E402  (the suite's servers and helpers)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--delay", type=int, default=50)
    args = parser.parse_args()
    extension = remote_test.Extension(os.path.abspath(os.path.join(args.build, "parquet")))
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_ENDPOINT_URL"):
        os.environ.pop(name, None)
    os.environ["AWS_SHARED_CREDENTIALS_FILE"] = "/nonexistent"
    subprocess.run(["bash", "scripts/install_node_packages.sh", "tests/remote", "s3rver", "remote"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="pq-metadata-cache-bench-"))
    processes = []
    try:
        (tmp / "data").mkdir()
        port, s3_port, s3rver_port = remote_test.free_port(), remote_test.free_port(), remote_test.free_port()
        remote_test.FAULT_PORT = port
        s3rver = subprocess.Popen(["node", "--openssl-legacy-provider", str(ROOT / "tests/remote/node_modules/s3rver/bin/s3rver.js"),
                                   "-d", str(tmp / "s3"), "-a", "127.0.0.1", "-p", str(s3rver_port), "--silent",
                                   "--configure-bucket", "bkt"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        processes.append(s3rver)
        server = subprocess.Popen(["node", str(ROOT / "tests/remote/test_server.mjs"), "--data", str(tmp / "data"), "--port", str(port),
                                   "--s3-port", str(s3_port), "--s3-upstream", f"http://127.0.0.1:{s3rver_port}",
                                   "--s3-delay", str(args.delay)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        processes.append(server)
        remote_test.wait_for_port(port, server, "test_server.mjs", "/dev/null")
        remote_test.wait_for_port(s3rver_port, s3rver, "s3rver", "/dev/null")
        results = measure(extension, s3_port, tmp, args.files)
        results["delay_ms"] = args.delay
        print(json.dumps(results, indent=2))
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


def measure(extension, port, tmp, files):
    database = tmp / "bench.db"
    remote_test.make_cached_dataset(extension, port, database, "mcb", files)
    results = {"files": files}
    # listing_only: the listing alone (every file pruned by filename), the part of each run
    # the cache does not change.
    for label, table, where in (("listing_only", "uncached", " WHERE filename = ''"), ("uncached", "uncached", ""),
                                ("cached_cold", "cached", ""), ("cached_warm", "cached", "")):
        before = len(remote_test.proxy_log(port))
        # The tables are read from the database file in each new process: their cache is
        # written only with the application's opt-in (docs/security.md, "The metadata cache").
        rows, seconds = remote_test.query_in_new_process(
            extension, database, ["SELECT parquet_allow_metadata_cache_writes(1)", f"SELECT count(*), sum(v) FROM {table}{where}"])
        entries = remote_test.proxy_log(port)[before:]
        confirmed, others = remote_test.object_reads(entries, "mcb/")
        listings = [e for e in entries if e["method"] == "GET" and "list-type=2" in e["url"]]
        results[label] = {"rows": rows, "seconds": round(seconds, 2), "object_requests_answered_304": len(confirmed),
                          "other_object_requests": len(others), "listing_pages": len(listings)}
        print(label, results[label], flush=True)
    return results


if __name__ == "__main__":
    main()
