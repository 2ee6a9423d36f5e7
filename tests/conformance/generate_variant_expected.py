#!/usr/bin/env python3
# Writes expected/shredded_variant__case-NNN.parquet.tsv for the shredded_variant cases that
# have a value (cases.json lists the error cases separately: error_cases.tsv holds their
# expected errors). Independent of the extension: each row's value is decoded here from its
# case-NNN_row-M.variant.bin companion (the variant metadata followed by the value, in the
# binary encoding of VariantEncoding.md) and written in our JSON text forms (docs/type-mapping.md,
# "Nested columns"; format/values/variant.h): floating point in JavaScript's shortest form with
# ".0" on integral values, decimals with their scale's digits, dates and times as text,
# timestamps in UTC as "YYYY-MM-DD HH:MM:SS[.fraction]", binary as base64, object keys sorted.
# As a second check, the decoded value is compared with the value cases.json documents in
# text (Variant(type=..., value=...), VariantObject(...), VariantArray(...)); any difference
# stops the script.
# The values were cross-checked against DuckDB 1.5.5 (var::JSON), which agrees except in
# form: it widens floats to double, adds "+00" to UTC timestamps, truncates nanoseconds to
# micros and writes binary as \\x hex.
# The `id` column: 1 for the single-row cases and 0..n-1 for the multi-row ones, except
# where ID_EXCEPTIONS says otherwise (values as DuckDB reads the files).
# Usage: generate_variant_expected.py [CASE_NUMBER...]   (run from the repository root;
# without numbers: every case that has a value)
import base64
import json
import math
import re
import struct
import sys
import uuid
from datetime import date, datetime, timedelta, timezone

CORPUS = "../shared/parquet-testing/shredded_variant/"
OUT = "tests/conformance/expected/"
ID_EXCEPTIONS = {126: [1, 2]}
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


# ---- JSON text forms ----

def js_number(digits, exponent, negative):
    """JavaScript's Number::toString for the decimal digits d1d2...dk x 10^(exponent-k)."""
    k = len(digits)
    n = exponent
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        e = n - 1
        sign = "+" if e >= 0 else "-"
        text = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + sign + str(abs(e))
    return ("-" if negative else "") + text


def shortest_digits(value, round_trips):
    """Fewest significant digits (and decimal exponent) that read back as `value`."""
    for precision in range(1, 18):
        text = "%.*e" % (precision - 1, value)
        if round_trips(float(text)):
            mantissa, exp = text.split("e")
            digits = mantissa.replace(".", "").lstrip("-").rstrip("0") or "0"
            return digits, int(exp) + 1
    raise ValueError("no round trip for %r" % value)


def json_float(value, width):
    if math.isnan(value) or math.isinf(value):
        return "null"
    negative = math.copysign(1.0, value) < 0
    if value == 0:
        return "-0.0" if negative else "0.0"
    if width == 32:
        digits, exponent = shortest_digits(abs(value), lambda x: struct.pack("<f", x) == struct.pack("<f", abs(value)))
    else:
        digits, exponent = shortest_digits(abs(value), lambda x: x == abs(value))
    text = js_number(digits, exponent, negative)
    if "." not in text and "e" not in text:
        text += ".0"
    return text


def json_decimal(unscaled, scale):
    text = str(abs(unscaled)).rjust(scale + 1, "0")
    if scale > 0:
        text = text[:-scale] + "." + text[-scale:]
    return ("-" if unscaled < 0 else "") + text


def fraction_text(nanos):
    return ("." + ("%09d" % nanos).rstrip("0")) if nanos else ""


def date_text(days):
    return (date(1970, 1, 1) + timedelta(days=days)).isoformat()


def timestamp_text(value, per_second):
    seconds, sub = divmod(value, per_second)
    moment = EPOCH + timedelta(seconds=seconds)
    return moment.strftime("%Y-%m-%d %H:%M:%S") + fraction_text(sub * (1_000_000_000 // per_second))


def time_text(micros):
    seconds, sub = divmod(micros, 1_000_000)
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60) + fraction_text(sub * 1000)


def string(text):
    return json.dumps(text, ensure_ascii=False)


# ---- variant binary decoding (VariantEncoding.md) ----

def unsigned(data, pos, size):
    return int.from_bytes(data[pos:pos + size], "little")


def read_metadata(data):
    """Returns (dictionary, length of the metadata)."""
    header = data[0]
    assert header & 15 == 1, "metadata version"
    offset_size = (header >> 6) + 1
    count = unsigned(data, 1, offset_size)
    offsets = [unsigned(data, 1 + offset_size * (i + 1), offset_size) for i in range(count + 1)]
    start = 1 + offset_size * (count + 2)
    keys = [data[start + offsets[i]:start + offsets[i + 1]].decode() for i in range(count)]
    return keys, start + offsets[-1]


def decode(keys, data, pos):
    """JSON text of the variant value starting at data[pos]."""
    header = data[pos]
    basic, info = header & 3, header >> 2
    p = pos + 1
    if basic == 1:
        return string(data[p:p + info].decode())
    if basic in (2, 3):
        is_object = basic == 2
        offset_size = (info & 3) + 1
        id_size = ((info >> 2) & 3) + 1 if is_object else 0
        large = (info >> 4) & 1 if is_object else (info >> 2) & 1
        count_size = 4 if large else 1
        count = unsigned(data, p, count_size)
        ids_at = p + count_size
        offsets_at = ids_at + count * id_size
        values_at = offsets_at + (count + 1) * offset_size
        items = []
        for i in range(count):
            item = decode(keys, data, values_at + unsigned(data, offsets_at + i * offset_size, offset_size))
            if is_object:
                items.append((keys[unsigned(data, ids_at + i * id_size, id_size)], item))
            else:
                items.append(item)
        if is_object:
            return "{" + ",".join(string(k) + ":" + v for k, v in sorted(items, key=lambda kv: kv[0].encode())) + "}"
        return "[" + ",".join(items) + "]"
    def signed(size):
        return int.from_bytes(data[p:p + size], "little", signed=True)
    if info == 0:
        return "null"
    if info in (1, 2):
        return "true" if info == 1 else "false"
    if info in (3, 4, 5, 6):
        return str(signed({3: 1, 4: 2, 5: 4, 6: 8}[info]))
    if info == 7:
        return json_float(struct.unpack_from("<d", data, p)[0], 64)
    if info == 14:
        return json_float(struct.unpack_from("<f", data, p)[0], 32)
    if info in (8, 9, 10):
        scale = data[p]
        width = {8: 4, 9: 8, 10: 16}[info]
        return json_decimal(int.from_bytes(data[p + 1:p + 1 + width], "little", signed=True), scale)
    if info == 11:
        return string(date_text(signed(4)))
    if info in (12, 13):
        return string(timestamp_text(signed(8), 1_000_000))
    if info in (18, 19):
        return string(timestamp_text(signed(8), 1_000_000_000))
    if info == 17:
        return string(time_text(signed(8)))
    if info in (15, 16):
        length = unsigned(data, p, 4)
        raw = data[p + 4:p + 4 + length]
        return string(base64.b64encode(raw).decode() if info == 15 else raw.decode())
    if info == 20:
        return string(str(uuid.UUID(bytes=bytes(data[p:p + 16]))))
    raise ValueError("variant primitive type %d" % info)


def decode_file(path):
    data = open(path, "rb").read()
    keys, metadata_length = read_metadata(data)
    return decode(keys, data, metadata_length)


# ---- the documented text of cases.json ----

def documented_timestamp(text):
    nanos = re.search(r"\.(\d+)", text)
    moment = datetime.fromisoformat(re.sub(r"\.\d+", "", text))
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    fraction = nanos.group(1).ljust(9, "0") if nanos else "0"
    return moment.strftime("%Y-%m-%d %H:%M:%S") + fraction_text(int(fraction))


def documented_primitive(kind, value):
    if kind == "NULL":
        return "null"
    if kind in ("BOOLEAN_TRUE", "BOOLEAN_FALSE"):
        return value
    if kind.startswith("INT") or kind.startswith("DECIMAL"):
        return value
    if kind == "FLOAT":
        return json_float(struct.unpack("<f", struct.pack("<f", float(value)))[0], 32)
    if kind == "DOUBLE":
        return json_float(float(value), 64)
    if kind in ("DATE", "TIME", "UUID"):
        return string(value)
    if kind.startswith("TIMESTAMP"):
        return string(documented_timestamp(value))
    if kind == "BINARY":
        return string(base64.b64encode(bytes.fromhex(value)).decode())
    if kind == "STRING":
        return string(value)
    raise ValueError("unhandled variant type " + kind)


def parse_documented(text, pos=0):
    """(JSON text, position after) of the value written at text[pos:]."""
    if text.startswith("Variant(metadata=", pos):
        pos = text.index("), value=", pos) + len("), value=")
        value, pos = parse_documented(text, pos)
        assert text[pos] == ")"
        return value, pos + 1
    if text.startswith("Variant(type=", pos):
        match = re.compile(r"Variant\(type=(\w+), value=([^)]*)\)").match(text, pos)
        return documented_primitive(match.group(1), match.group(2)), match.end()
    if text.startswith("VariantObject(fields={", pos):
        pos += len("VariantObject(fields={")
        fields = []
        while text[pos] != "}":
            match = re.compile(r"(\w+): ").match(text, pos)
            value, pos = parse_documented(text, match.end())
            fields.append((match.group(1), value))
            if text.startswith(", ", pos):
                pos += 2
        assert text.startswith("})", pos)
        return "{" + ",".join(string(k) + ":" + v for k, v in sorted(fields)) + "}", pos + 2
    if text.startswith("VariantArray([", pos):
        pos += len("VariantArray([")
        items = []
        while not text.startswith("])", pos):
            value, pos = parse_documented(text, pos)
            items.append(value)
            if text.startswith(", ", pos):
                pos += 2
        return "[" + ",".join(items) + "]", pos + 2
    raise ValueError("cannot parse the documented value at: " + text[pos:pos + 60])


def documented_rows(text):
    """The rows of a documented list "[Variant(...), null, ...]": JSON texts, None for null."""
    assert text.startswith("[")
    pos = 1
    rows = []
    while not text.startswith("]", pos):
        if text.startswith("null", pos):
            rows.append(None)
            pos += 4
        else:
            value, pos = parse_documented(text, pos)
            rows.append(value)
        if text.startswith(", ", pos):
            pos += 2
    assert pos == len(text) - 1, text[pos:]
    return rows


def main():
    cases = {c["case_number"]: c for c in json.load(open(CORPUS + "cases.json"))}
    numbers = [int(n) for n in sys.argv[1:]] or sorted(n for n, c in cases.items() if "parquet_file" in c and "error_message" not in c)
    for number in numbers:
        case = cases[number]
        files = case.get("variant_files") or [case["variant_file"]]
        documented = documented_rows(case.get("variants") or "[" + case["variant"] + "]")
        rows = [decode_file(CORPUS + f) if f else None for f in files]
        if len(documented) != len(rows):
            sys.exit("case %d: %d .variant.bin files, %d documented values" % (number, len(rows), len(documented)))
        for row, (decoded, expected) in enumerate(zip(rows, documented)):
            if decoded != expected:
                sys.exit("case %d row %d: the .variant.bin gives %s, cases.json documents %s" %
                         (number, row, decoded, expected))
        ids = ID_EXCEPTIONS.get(number) or ([1] if len(rows) == 1 else list(range(len(rows))))
        name = "shredded_variant/" + case["parquet_file"]
        with open(OUT + name.replace("/", "__") + ".tsv", "w", encoding="utf-8", newline="\n") as out:
            out.write("# file: " + name + "\n# columns: id\tvar\n# rows: %d\n" % len(rows))
            for row_id, value in zip(ids, rows):
                out.write("i:%d\t%s\n" % (row_id, "NULL" if value is None else "t:" + json.dumps(value, ensure_ascii=False)))


main()
