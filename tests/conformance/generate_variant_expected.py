#!/usr/bin/env python3
# Writes expected/shredded_variant__case-NNN.parquet.tsv for the shredded_variant cases
# whose variant value cases.json documents as a primitive or a flat object, translating the
# documented value into our JSON text forms (README, "Nested columns"; format/variant.h):
# timestamps in UTC as "YYYY-MM-DD HH:MM:SS[.fraction]", binary as base64, decimals with
# their digits as documented. Independent of the extension's variant decoder.
# The values were cross-checked against DuckDB 1.5.5 (var::JSON), which agrees except in
# form: it widens floats to double, adds "+00" to UTC timestamps, truncates nanoseconds to
# micros and writes binary as \\x hex.
# Usage: generate_variant_expected.py CASE_NUMBER...   (run from the repository root)
import base64
import json
import re
import sys
from datetime import datetime, timezone

CORPUS = "../shared/parquet-testing/shredded_variant/"
OUT = "tests/conformance/expected/"


def timestamp_text(text):
    moment = datetime.fromisoformat(text[:26] + text[29:] if re.search(r"\.\d{9}", text) else text)
    nanos = re.search(r"\.(\d+)", text)
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    out = moment.strftime("%Y-%m-%d %H:%M:%S")
    fraction = nanos.group(1).rstrip("0") if nanos else ""
    return out + ("." + fraction if fraction else "")


def primitive_json(kind, value):
    if kind == "NULL":
        return "null"
    if kind in ("BOOLEAN_TRUE", "BOOLEAN_FALSE"):
        return value
    if kind.startswith("INT") or kind.startswith("DECIMAL") or kind in ("FLOAT", "DOUBLE"):
        return value
    if kind in ("DATE", "TIME", "UUID"):
        return json.dumps(value)
    if kind.startswith("TIMESTAMP"):
        return json.dumps(timestamp_text(value))
    if kind == "BINARY":
        return json.dumps(base64.b64encode(bytes.fromhex(value)).decode())
    if kind == "STRING":
        return json.dumps(value, ensure_ascii=False)
    raise ValueError("unhandled variant type " + kind)


def variant_json(text):
    primitive = re.fullmatch(r"Variant\(type=(\w+), value=(.*)\)", text)
    if primitive:
        return primitive_json(primitive.group(1), primitive.group(2))
    obj = re.fullmatch(r"VariantObject\(fields=\{(.*)\}\)", text)
    if obj:
        fields = re.findall(r"(\w+): (Variant\(type=\w+, value=[^)]*\))", obj.group(1))
        return "{" + ",".join(json.dumps(k) + ":" + variant_json(v) for k, v in sorted(fields)) + "}"
    raise ValueError("unhandled variant " + text)


def main():
    cases = {c["case_number"]: c for c in json.load(open(CORPUS + "cases.json"))}
    for number in map(int, sys.argv[1:]):
        case = cases[number]
        documented = re.fullmatch(r"Variant\(metadata=VariantMetadata\(dict=\{.*?\}\), value=(.*)\)", case["variant"])
        var = variant_json(documented.group(1))
        name = "shredded_variant/" + case["parquet_file"]
        with open(OUT + name.replace("/", "__") + ".tsv", "w", encoding="utf-8", newline="\n") as out:
            out.write("# file: " + name + "\n# columns: id\tvar\n# rows: 1\n")
            out.write("i:1\tt:" + json.dumps(var, ensure_ascii=False) + "\n")


main()
