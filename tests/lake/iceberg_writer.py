"""A small writer of Iceberg v2 table metadata for tests and benchmarks (our own, from the
spec, format/spec.md of apache/iceberg): metadata.json, one Avro manifest list with the
partition summaries of each manifest, and Avro manifests (codec null) naming data files and
delete files (position and equality) with their partition values, record counts, null
counts and lower/upper bounds. The Parquet files themselves are written by the caller
(parquet_copy). The table has two partition specs: 0 is by default identity on field `p`
(the column is not in the data files: its values come from the manifests), or the fields
the caller gives (any transform: bucket[N], truncate[W], year, month, day, hour, void, on
columns of the data files; `transform_value` computes them as the spec says), 1 is
unpartitioned (for global equality deletes). Used by tests/lake/iceberg_conformance.py and
bench/iceberg_bench.py.
"""
import json
import struct


def zigzag(n):
    n = (n << 1) ^ (n >> 63)
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def avro_bytes(b):
    return zigzag(len(b)) + b


def avro_string(s):
    return avro_bytes(s.encode())


def union(value, encode):
    """A ["null", T] union: branch 0 for None, else branch 1 and the value."""
    return zigzag(0) if value is None else zigzag(1) + encode(value)


def array(items, encode):
    if not items:
        return zigzag(0)
    return zigzag(len(items)) + b"".join(encode(i) for i in items) + zigzag(0)


def container(schema, records, metadata=None):
    sync = b"0123456789abcdef"
    out = bytearray(b"Obj\x01")
    meta = {"avro.schema": json.dumps(schema).encode(), "avro.codec": b"null"}
    for k, v in (metadata or {}).items():
        meta[k] = v.encode()
    out += zigzag(len(meta))
    for k, v in meta.items():
        out += avro_string(k) + avro_bytes(v)
    out += zigzag(0) + sync
    body = b"".join(records)
    out += zigzag(len(records)) + zigzag(len(body)) + body + sync
    return bytes(out)


def long_bound(v):
    return struct.pack("<q", v)


def int_bound(v):
    return struct.pack("<i", v)


def map_schema(name, key_id, value_id, value_type, field_id):
    return {"name": name, "field-id": field_id, "type": ["null", {
        "type": "array", "logicalType": "map", "items": {
            "type": "record", "name": "k%d_v%d" % (key_id, value_id), "fields": [
                {"name": "key", "type": "int", "field-id": key_id},
                {"name": "value", "type": value_type, "field-id": value_id}]}}], "default": None}


class PartitionField:
    """A field of partition spec 0: `transform` of column `source_id`; `kind` the Avro type
    of its values ("int", "long" or "string")."""

    def __init__(self, name, source_id, transform, kind="int", field_id=1000):
        self.name = name
        self.source_id = source_id
        self.transform = transform
        self.kind = kind
        self.field_id = field_id

    def encode(self, value):
        return avro_string(value) if self.kind == "string" else zigzag(value)

    def bound(self, value):
        if self.kind == "string":
            return value.encode()
        return long_bound(value) if self.kind == "long" else int_bound(value)


IDENTITY_P = [PartitionField("p", 999, "identity")]


def murmur3_32(data):
    """Iceberg's bucket hash (spec Appendix B): murmur3 x86 32-bit, seed 0, as a signed int."""
    c1, c2, mask = 0xcc9e2d51, 0x1b873593, 0xffffffff
    h = 0
    n = len(data) // 4 * 4
    for i in range(0, n, 4):
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * c1) & mask
        k = ((k << 15) | (k >> 17)) & mask
        k = (k * c2) & mask
        h ^= k
        h = ((h << 13) | (h >> 19)) & mask
        h = (h * 5 + 0xe6546b64) & mask
    tail = data[n:]
    k = 0
    for j in reversed(range(len(tail))):
        k = (k << 8) | tail[j]
    if tail:
        k = (k * c1) & mask
        k = ((k << 15) | (k >> 17)) & mask
        k = (k * c2) & mask
        h ^= k
    h ^= len(data)
    h ^= h >> 16
    h = (h * 0x85ebca6b) & mask
    h ^= h >> 13
    h = (h * 0xc2b2ae35) & mask
    h ^= h >> 16
    return h - (1 << 32) if h >= 1 << 31 else h


def transform_value(transform, kind, value):
    """The partition value of a source value (None stays None). `kind`: "long" (int and
    long), "string", "date" (days since 1970-01-01) or "timestamp" (microseconds)."""
    import datetime
    if value is None or transform == "void":
        return None
    if transform == "identity":
        return value
    if transform.startswith("bucket["):
        n = int(transform[7:-1])
        data = value.encode() if kind == "string" else struct.pack("<q", value)
        return (murmur3_32(data) & 0x7fffffff) % n
    if transform.startswith("truncate["):
        w = int(transform[9:-1])
        if kind == "string":
            return value[:w]  # code points
        return value - (value % w)  # Python's % is a floor modulo, as the spec's
    if kind == "timestamp":
        if transform == "hour":
            return value // 3600000000
        days = value // 86400000000
    else:
        days = value
    if transform == "day":
        return days
    date = datetime.date(1970, 1, 1) + datetime.timedelta(days=days)
    if transform == "year":
        return date.year - 1970
    if transform == "month":
        return (date.year - 1970) * 12 + date.month - 1
    raise ValueError(transform)


def entry_schema(spec):
    partition_fields = [{"name": f.name, "type": ["null", f.kind], "field-id": f.field_id, "default": None}
                        for f in spec or []]
    return {
        "type": "record", "name": "manifest_entry", "fields": [
            {"name": "status", "type": "int", "field-id": 0},
            {"name": "snapshot_id", "type": ["null", "long"], "field-id": 1},
            {"name": "sequence_number", "type": ["null", "long"], "field-id": 3},
            {"name": "file_sequence_number", "type": ["null", "long"], "field-id": 4},
            {"name": "data_file", "field-id": 2, "type": {"type": "record", "name": "r2", "fields": [
                {"name": "content", "type": "int", "field-id": 134},
                {"name": "file_path", "type": "string", "field-id": 100},
                {"name": "file_format", "type": "string", "field-id": 101},
                {"name": "partition", "field-id": 102, "type": {"type": "record", "name": "r102",
                                                               "fields": partition_fields}},
                {"name": "record_count", "type": "long", "field-id": 103},
                {"name": "file_size_in_bytes", "type": "long", "field-id": 104},
                map_schema("null_value_counts", 121, 122, "long", 110),
                map_schema("lower_bounds", 126, 127, "bytes", 125),
                map_schema("upper_bounds", 129, 130, "bytes", 128),
                {"name": "equality_ids", "field-id": 135, "default": None,
                 "type": ["null", {"type": "array", "items": {"type": "int"}, "element-id": 136}]},
            ]}},
        ]}


SUMMARY_SCHEMA = {"type": "record", "name": "r508", "fields": [
    {"name": "contains_null", "type": "boolean", "field-id": 509},
    {"name": "contains_nan", "type": ["null", "boolean"], "field-id": 518},
    {"name": "lower_bound", "type": ["null", "bytes"], "field-id": 510},
    {"name": "upper_bound", "type": ["null", "bytes"], "field-id": 511}]}

LIST_SCHEMA = {
    "type": "record", "name": "manifest_file", "fields": [
        {"name": "manifest_path", "type": "string", "field-id": 500},
        {"name": "manifest_length", "type": "long", "field-id": 501},
        {"name": "partition_spec_id", "type": "int", "field-id": 502},
        {"name": "content", "type": "int", "field-id": 517},
        {"name": "sequence_number", "type": "long", "field-id": 515},
        {"name": "min_sequence_number", "type": "long", "field-id": 516},
        {"name": "added_snapshot_id", "type": "long", "field-id": 503},
        {"name": "added_files_count", "type": "int", "field-id": 504},
        {"name": "existing_files_count", "type": "int", "field-id": 505},
        {"name": "deleted_files_count", "type": "int", "field-id": 506},
        {"name": "added_rows_count", "type": "long", "field-id": 512},
        {"name": "existing_rows_count", "type": "long", "field-id": 513},
        {"name": "deleted_rows_count", "type": "long", "field-id": 514},
        {"name": "partitions", "field-id": 507, "default": None,
         "type": ["null", {"type": "array", "items": SUMMARY_SCHEMA, "element-id": 508}]},
    ]}


class File:
    """A data or delete file as a manifest entry names it.
    content: 0 data, 1 position deletes, 2 equality deletes; p: the partition value (spec 0
    identity on p), or None in an unpartitioned manifest; partition: the tuple of values of
    a caller's spec 0; bounds: {field id: (lower bytes, upper bytes)};
    null_counts: {field id: count}."""

    def __init__(self, path, record_count, size, p=None, content=0, bounds=None, null_counts=None, equality_ids=None,
                 partition=None):
        self.path = str(path)
        self.partition = partition if partition is not None else (p,)
        self.record_count = record_count
        self.size = size
        self.p = p
        self.content = content
        self.bounds = bounds or {}
        self.null_counts = null_counts or {}
        self.equality_ids = equality_ids


class Manifest:
    """The files of one manifest: content 0 (data) or 1 (deletes), spec 0 (by p) or 1
    (unpartitioned), the sequence number and snapshot that added them (inherited: the
    entries leave theirs null)."""

    def __init__(self, files, content=0, spec_id=0, sequence_number=1, snapshot_id=1):
        self.files = files
        self.content = content
        self.spec_id = spec_id
        self.sequence_number = sequence_number
        self.snapshot_id = snapshot_id


def encode_entry(f, spec):
    partition = b"".join(union(v, field.encode) for field, v in zip(spec or [], f.partition))
    kv = lambda item: zigzag(item[0]) + item[1]
    return (zigzag(1) + zigzag(0) + zigzag(0) + zigzag(0) +  # ADDED; snapshot id and sequence numbers inherited
            zigzag(f.content) + avro_string(f.path) + avro_string("PARQUET") + partition +
            zigzag(f.record_count) + zigzag(f.size) +
            union(sorted(f.null_counts.items()) or None, lambda items: array(items, lambda i: zigzag(i[0]) + zigzag(i[1]))) +
            union([(k, avro_bytes(v[0])) for k, v in sorted(f.bounds.items())] or None, lambda items: array(items, kv)) +
            union([(k, avro_bytes(v[1])) for k, v in sorted(f.bounds.items())] or None, lambda items: array(items, kv)) +
            union(f.equality_ids, lambda ids: array(ids, zigzag)))


def write_table(table, manifests, columns, summaries=True, spec=None):
    """Writes table/metadata/: the manifests, the manifest list of the one current snapshot
    (the highest sequence number among the manifests) and v1.metadata.json with
    version-hint.text. `columns` are (field id, name, Iceberg type) of the data files' columns;
    field `p` (int) is added when `spec` (PartitionFields of spec 0) is the default identity
    on p. With summaries, each partitioned manifest's list entry has the partition summary of
    each field of spec 0."""
    custom = spec is not None
    spec = spec if custom else IDENTITY_P
    metadata_dir = table / "metadata"
    metadata_dir.mkdir(parents=True, exist_ok=True)
    last_sequence = max(m.sequence_number for m in manifests)
    last_snapshot = max(m.snapshot_id for m in manifests)
    records = []
    for i, m in enumerate(manifests):
        fields = spec if m.spec_id == 0 else []
        path = metadata_dir / ("m%d.avro" % i)
        path.write_bytes(container(entry_schema(fields), [encode_entry(f, fields) for f in m.files],
                                   {"format-version": "2", "partition-spec-id": str(m.spec_id),
                                    "content": "data" if m.content == 0 else "deletes"}))
        summary = None
        if summaries and fields:
            summary = []
            for k, field in enumerate(fields):
                values = [f.partition[k] for f in m.files if f.partition[k] is not None]
                summary.append(bytes([1 if any(f.partition[k] is None for f in m.files) else 0]) + zigzag(0) +  # boolean: one byte
                               union(field.bound(min(values)) if values else None, avro_bytes) +
                               union(field.bound(max(values)) if values else None, avro_bytes))
        rows = sum(f.record_count for f in m.files)
        records.append(avro_string(str(path)) + zigzag(path.stat().st_size) + zigzag(m.spec_id) + zigzag(m.content) +
                       zigzag(m.sequence_number) + zigzag(m.sequence_number) + zigzag(m.snapshot_id) +
                       zigzag(len(m.files)) + zigzag(0) + zigzag(0) + zigzag(rows) + zigzag(0) + zigzag(0) +
                       union(summary, lambda items: array(items, lambda x: x)))
    manifest_list = metadata_dir / ("snap-%d.avro" % last_snapshot)
    manifest_list.write_bytes(container(LIST_SCHEMA, records))
    fields = [{"id": fid, "name": name, "required": False, "type": kind} for fid, name, kind in columns]
    if not custom:
        fields.append({"id": 1000 - 1, "name": "p", "required": False, "type": "int"})
    metadata = {
        "format-version": 2, "table-uuid": "00000000-0000-0000-0000-000000000047", "location": str(table),
        "last-sequence-number": last_sequence, "last-updated-ms": 0, "last-column-id": 999, "current-schema-id": 0,
        "schemas": [{"type": "struct", "schema-id": 0, "fields": fields}],
        "default-spec-id": 0, "last-partition-id": max(f.field_id for f in spec),
        "partition-specs": [{"spec-id": 0, "fields": [{"source-id": f.source_id, "field-id": f.field_id, "name": f.name,
                                                       "transform": f.transform} for f in spec]},
                            {"spec-id": 1, "fields": []}],
        "properties": {}, "current-snapshot-id": last_snapshot,
        "snapshots": [{"snapshot-id": last_snapshot, "sequence-number": last_sequence, "timestamp-ms": 0,
                       "summary": {"operation": "append"}, "manifest-list": str(manifest_list), "schema-id": 0}],
    }
    (metadata_dir / "v1.metadata.json").write_text(json.dumps(metadata))
    (metadata_dir / "version-hint.text").write_text("1")
