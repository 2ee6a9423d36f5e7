#!/usr/bin/env python3
"""Writes the sqlite-parquet wheel (`make dist`) with the standard library only, following
the binary distribution format (PEP 427 / PEP 491): the package files, the self-contained
extension as sqlite_parquet/parquet.so, and a .dist-info folder with METADATA, WHEEL and
RECORD. No setuptools, no build isolation, nothing downloaded; the output is reproducible
(fixed timestamps, sorted entries).

    build_wheel.py --version 0.1.0 --binary dist/parquet.so --glibc 2.28 --arch x86_64 --out-dir dist
    build_wheel.py --version 0.1.0 --binary dist/parquet.dll --windows --out-dir dist

The Windows wheel (tag win_amd64) carries sqlite_parquet/parquet.dll instead.
"""
import argparse
import base64
import hashlib
import os
import zipfile

PACKAGE = "sqlite_parquet"
DISTRIBUTION = "sqlite-parquet"
HERE = os.path.dirname(os.path.abspath(__file__))
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", required=True)
    parser.add_argument("--binary", required=True, help="the self-contained parquet.so")
    parser.add_argument("--glibc", help="oldest glibc the binary needs, e.g. 2.28 (Linux)")
    parser.add_argument("--arch", default="x86_64", choices=["x86_64", "aarch64"],
                        help="the binary's machine, as the manylinux platform tag names it")
    parser.add_argument("--windows", action="store_true", help="a Windows x64 parquet.dll")
    parser.add_argument("--out-dir", required=True)
    args = parser.parse_args()
    if args.windows == bool(args.glibc):
        parser.error("give --glibc (Linux) or --windows, one of them")

    if args.windows:
        tag, binary_name, system = "py3-none-win_amd64", "parquet.dll", "Microsoft :: Windows"
    else:
        major, minor = args.glibc.split(".")[:2]
        tag, binary_name, system = f"py3-none-manylinux_{major}_{minor}_{args.arch}", "parquet.so", "POSIX :: Linux"
    dist_info = f"{PACKAGE}-{args.version}.dist-info"
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        description = f.read()

    files = {}  # path in the wheel -> (bytes, executable)
    package_dir = os.path.join(HERE, PACKAGE)
    for name in sorted(os.listdir(package_dir)):
        if name.endswith(".py"):
            with open(os.path.join(package_dir, name), "rb") as f:
                files[f"{PACKAGE}/{name}"] = (f.read(), False)
    files[f"{PACKAGE}/_version.py"] = (
        f'"""The sqlite-parquet version (the repository\'s VERSION file)."""\n'
        f'__version__ = "{args.version}"\n'.encode(), False)
    with open(args.binary, "rb") as f:
        files[f"{PACKAGE}/{binary_name}"] = (f.read(), True)
    files[f"{dist_info}/METADATA"] = (
        "Metadata-Version: 2.1\n"
        f"Name: {DISTRIBUTION}\n"
        f"Version: {args.version}\n"
        "Summary: Read and write Parquet files from SQLite: the sqlite-parquet extension\n"
        "Requires-Python: >=3.8\n"
        f"Classifier: Operating System :: {system}\n"
        "Description-Content-Type: text/markdown\n"
        f"\n{description}".encode(), False)
    files[f"{dist_info}/WHEEL"] = (
        "Wheel-Version: 1.0\n"
        "Generator: sqlite-parquet build_wheel.py\n"
        "Root-Is-Purelib: false\n"
        f"Tag: {tag}\n".encode(), False)

    record_path = f"{dist_info}/RECORD"
    record = [record_line(path, data) for path, (data, _) in files.items()]
    record.append(f"{record_path},,")
    files[record_path] = (("\n".join(record) + "\n").encode(), False)

    os.makedirs(args.out_dir, exist_ok=True)
    wheel_path = os.path.join(args.out_dir, f"{PACKAGE}-{args.version}-{tag}.whl")
    with zipfile.ZipFile(wheel_path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, (data, executable) in files.items():
            info = zipfile.ZipInfo(path, ZIP_TIME)
            info.external_attr = (0o755 if executable else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    print(wheel_path)


if __name__ == "__main__":
    main()
