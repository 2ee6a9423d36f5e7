// xColumn of the `parquet` table's cursor (table_cursor.h): each column's reader and its
// decoded batch (LoadBatch, positioned lazily at the cursor's row), the cells served from
// it (Column's fast path for plain batches without nulls: DirectCell), nested columns
// assembled and rendered as JSON, and the hive keys and hidden columns.
#include "ext/table/table_cursor.h"

#include "ext/common/sqlite_values.h"
#include "ext/common/vtab_errors.h"
#include "format/common/error.h"
#include "format/io/remote_file.h"

namespace sqlite_parquet {

namespace {

[[noreturn, gnu::cold, gnu::noinline]] void ThrowShortColumn(const ParquetCursor* cursor, int leaf) {
  throw parquet::ParquetError(cursor->file->Describe(cursor->row_group, leaf) +
                              ": column has fewer values than the row group's " +
                              std::to_string(cursor->rows_in_group) + " rows");
}

// How xColumn can serve the cells of a batch without nulls of a column mapped by `mapping`.
DirectCell DirectCellOf(const ColumnMapping& mapping, const parquet::ColumnBatch& batch) {
  switch (mapping.kind) {
    case ValueKind::kInt32: return DirectCell::kInt32;
    case ValueKind::kInt64: return DirectCell::kInt64;
    case ValueKind::kDouble: return DirectCell::kDouble;
    case ValueKind::kText: return batch.text_terminated ? DirectCell::kTerminatedText : DirectCell::kText;
    case ValueKind::kDate:
      return mapping.timestamp_form == TimestampForm::kText ? DirectCell::kDateText : DirectCell::kNone;
    default: return DirectCell::kNone;
  }
}

// Makes `state`'s freshly filled batch the slots from `row` on.
void StartBatch(ParquetCursor* cursor, ColumnState* state, int64_t row) {
  state->batch_first_row = row;
  state->batch_end = row + static_cast<int64_t>(state->batch.num_levels);
  state->slot = 0;
  state->value = 0;
  state->dense = state->max_def == 0 || state->batch.num_values == state->batch.num_levels;
  const ColumnMapping& mapping = cursor->mappings[static_cast<size_t>(state - cursor->states.data())];
  state->direct = state->dense ? DirectCellOf(mapping, state->batch) : DirectCell::kNone;
  state->direct_values = state->batch.values<uint8_t>();
}

// LoadBatch in a scan whose rows a join index named (lookup_batch_cache.h): the slots from
// the cursor's row to the end of its range, copied from the batch the cursor keeps.
[[gnu::noinline]] void LoadKeptBatch(ParquetCursor* cursor, const ParquetTable& table, int leaf, ColumnState* state) {
  if (!cursor->batch_cache) {
    cursor->batch_cache =
        std::make_unique<LookupBatchCache>(static_cast<uint64_t>(table.options.join_index_memory));
  }
  parquet::ColumnReaderOptions options;
  options.verify_crc = table.options.verify_crc;
  options.memory_budget = cursor->memory_budget;
  const int64_t row = cursor->row;
  size_t slots = kBatchSlots;
  if (cursor->range_index < cursor->ranges.num_ranges() && cursor->ranges.range(cursor->range_index).end > row) {
    slots = static_cast<size_t>(std::min<int64_t>(kBatchSlots, cursor->ranges.range(cursor->range_index).end - row));
  }
  cursor->batch_cache->Copy(*cursor->file, cursor->file_index, cursor->row_group, leaf, row, slots, options,
                            &state->batch);
  state->row_group = cursor->row_group;
  state->max_def = cursor->file->schema().column(leaf).max_definition_level;
  StartBatch(cursor, state, row);
  state->batch_from_reader = false;
  state->reader_end = 0;
}

}  // namespace

// The slow part of PositionColumn: (re)opens the column's reader on the cursor's row group
// and decodes the batch holding the cursor's row, skipping the rows before it undecoded.
[[gnu::noinline]] void LoadBatch(ParquetCursor* cursor, const ParquetTable& table, int leaf, ColumnState* state) {
  if (cursor->indexed_filter >= 0 && LookupBatchCache::Cacheable(cursor->file->schema().column(leaf).physical_type)) {
    LoadKeptBatch(cursor, table, leaf, state);
    return;
  }
  if (state->resume) {
    // The reader and batch an earlier scan of this file left (Filter): a row before that
    // batch starts the row group over; one in the same row group goes on from the batch.
    state->resume = false;
    if (cursor->row < state->reader_first) {
      state->row_group = -1;
    } else if (state->row_group == cursor->row_group) {
      StartBatch(cursor, state, state->reader_first);
    }
  }
  if (state->row_group != cursor->row_group) {
    state->reader_end = 0;
    if (AddPrefetchLeaf(cursor, leaf)) PrefetchRowGroup(*cursor->file, cursor->row_group, {leaf}, cursor->ranges);
    if (!state->reader) {
      parquet::ColumnReaderOptions options;
      options.verify_crc = table.options.verify_crc;
      options.memory_budget = cursor->memory_budget;
      options.decompress_ahead = cursor->decompress_ahead;
      state->reader = parquet::ColumnChunkReader::Make(*cursor->file, cursor->row_group, leaf, options);
    } else {
      state->reader->Reset(cursor->row_group);
    }
    state->row_group = cursor->row_group;
    state->max_def = state->reader->descriptor().max_definition_level;
    state->batch.num_levels = 0;
    state->batch.num_values = 0;
    state->batch_first_row = 0;
    state->batch_end = 0;
  }
  const int64_t row = cursor->row;
  if (row < state->batch_end) return;
  state->reader_end = 0;  // the reader moves (set again once the batch is read)
  if (row > state->batch_end) {
    const size_t gap = static_cast<size_t>(row - state->batch_end);
    if (state->reader->Skip(gap) != gap) ThrowShortColumn(cursor, leaf);
  }
  if (state->reader->ReadBatch(kBatchSlots, &state->batch) == 0) ThrowShortColumn(cursor, leaf);
  StartBatch(cursor, state, row);
  state->batch_from_reader = true;
  state->reader_first = row;
  state->reader_end = state->batch_end;
}

namespace {

// Before xColumn serves the first text cell of a batch: a batch the column's reader read
// from PLAIN or DELTA_LENGTH_BYTE_ARRAY pages is NUL-terminated by the reader (one copy per
// batch; TerminateText), so that its cells go to SQLite as C strings, which SQLite does
// not re-allocate to terminate. Only batches xColumn serves pay for the copy: row filters
// and join-index builds read values where the page holds them. A batch that stays
// unterminated (a value holds a NUL, long values, no memory) is served through ResultText.
[[gnu::noinline]] void TerminateServedText(ColumnState* state) {
  if (state->batch_from_reader && state->reader) {
    state->batch_from_reader = false;
    try {
      state->reader->TerminateText(&state->batch);
    } catch (...) {
      // Only a saving: the cells are copied one by one instead.
    }
  }
  if (state->direct == DirectCell::kText) {
    state->direct = state->batch.text_terminated ? DirectCell::kTerminatedText : DirectCell::kCopiedText;
  }
}

// Assembles the cursor's current row of a nested field into state->json (unless it is
// there already); sets state->json_is_null for a null value.
void PositionNestedColumn(ParquetCursor* cursor, const ParquetTable& table, int field, ColumnState* state) {
  if (!state->assembler) {
    parquet::ColumnReaderOptions options;
    options.verify_crc = table.options.verify_crc;
    options.memory_budget = cursor->memory_budget;
    state->assembler = std::make_unique<parquet::RecordAssembler>(*cursor->file, field, options, kBatchSlots);
    state->renderer = std::make_unique<NestedJsonRenderer>(cursor->file->schema(), state->assembler->shape(),
                                                           table.options.mapping);
    if (cursor->files->lake && !cursor->files->lake->nested_field_names.empty()) {
      state->renderer->RenameFields(cursor->files->lake->nested_field_names);
    }
  }
  if (state->row_group == cursor->row_group && state->json_row == cursor->row) return;
  if (state->row_group != cursor->row_group || cursor->row < state->assembler->next_row()) {
    state->assembler->Reset(cursor->row_group);
    state->row_group = cursor->row_group;
  }
  state->json_row = -1;
  try {
    state->assembler->SkipRows(cursor->row - state->assembler->next_row());
    state->assembler->ReadRow();
    state->json_is_null = !state->renderer->Render(*state->assembler, &state->json);
  } catch (...) {
    state->row_group = -1;  // start afresh next time
    throw;
  }
  state->json_row = cursor->row;
}

int NestedColumn(ParquetCursor* cursor, ParquetTable* table, sqlite3_context* ctx, const ColumnMapping& mapping,
                 ColumnState* state) {
  PositionNestedColumn(cursor, *table, mapping.nested_field, state);
  if (state->json_is_null) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  const int limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
  if (state->json.size() > static_cast<size_t>(limit)) {
    const parquet::Schema& schema = cursor->file->schema();
    std::string message = "the value of nested column '" +
                          schema.node(schema.top_level_fields()[static_cast<size_t>(mapping.nested_field)]).name +
                          "' in row " + std::to_string(RowInFile(cursor)) + " of " +
                          parquet::PathForDisplay(cursor->files->paths[cursor->file_index]) +
                          " is " + std::to_string(state->json.size()) +
                          " bytes of JSON, more than SQLite's maximum length of " + std::to_string(limit) +
                          " bytes (SQLITE_MAX_LENGTH)";
    SetVtabError(cursor->base.pVtab, message);
    sqlite3_result_error(ctx, message.c_str(), -1);
    return SQLITE_ERROR;
  }
  sqlite3_result_text64(ctx, state->json.data(), state->json.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  sqlite3_result_subtype(ctx, kJsonSubtype);
  return SQLITE_OK;
}

// xColumn for the hidden columns and the hive partition keys.
[[gnu::noinline]] int FileConstantColumn(ParquetCursor* cursor, const ParquetTable* table, sqlite3_context* ctx,
                                         int column) {
  if (column == table->file_row_number_column()) {
    try {
      sqlite3_result_int64(ctx, RowInFile(cursor));  // a counted file may load its deleted rows
    } catch (...) {
      return ColumnCallbackError(cursor->base.pVtab, ctx);
    }
  } else {
    ResultSqlValue(ctx, FileConstant(*table, *cursor->files, column, cursor->file_index));
  }
  return SQLITE_OK;
}

// xColumn's error path: the message goes to the table and to the result.
// Out of line, so that xColumn's fast path stays small.
[[gnu::noinline, gnu::cold]] int ColumnError(sqlite3_vtab_cursor* base, sqlite3_context* ctx) {
  return ColumnCallbackError(base->pVtab, ctx);
}

// xColumn for a column whose value is not a plain leaf value: nested JSON, or always NULL.
[[gnu::noinline]] int OtherColumn(ParquetCursor* cursor, ParquetTable* table, sqlite3_context* ctx,
                                  const ColumnMapping& mapping, ColumnState* state) {
  if (mapping.kind != ValueKind::kNested) {
    if (mapping.constant) {
      ResultSqlValue(ctx, mapping.constant->value());
    } else {
      sqlite3_result_null(ctx);
    }
    return SQLITE_OK;
  }
  TransferInterruptScope interruptible(cursor, *table);  // the only paths that can fetch: here and LoadAndResultCell
  try {
    return NestedColumn(cursor, table, ctx, mapping, state);
  } catch (...) {
    return ColumnError(&cursor->base, ctx);
  }
}

// ResultCell for a batch with nulls: counts definition levels from the previous position
// (each slot once per batch).
[[gnu::noinline]] int ResultSparseCell(ParquetCursor* cursor, sqlite3_context* ctx, const ColumnMapping& mapping,
                                       ColumnState* state) {
  const size_t slot = static_cast<size_t>(cursor->row - state->batch_first_row);
  if (!MoveToSlot(state, slot)) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  return ResultBatchValue(ctx, mapping, state->batch, state->value, &cursor->format_buffer);
}

// Sets the result to the value of `state`'s column in the cursor's row, which lies in the
// loaded batch.
inline int ResultCell(ParquetCursor* cursor, sqlite3_context* ctx, const ColumnMapping& mapping, ColumnState* state) {
  if (mapping.kind == ValueKind::kText && state->batch_from_reader) TerminateServedText(state);
  if (!state->dense) return ResultSparseCell(cursor, ctx, mapping, state);
  const size_t index = static_cast<size_t>(cursor->row - state->batch_first_row);
  return ResultBatchValue(ctx, mapping, state->batch, index, &cursor->format_buffer);
}

// xColumn when the column's batch does not hold the cursor's row: decode it first.
[[gnu::noinline]] int LoadAndResultCell(ParquetCursor* cursor, sqlite3_context* ctx, const ColumnMapping& mapping,
                                        ColumnState* state) {
  TransferInterruptScope interruptible(cursor, *TableOf(&cursor->base));
  try {
    LoadBatch(cursor, *TableOf(&cursor->base), mapping.leaf_column, state);
  } catch (...) {
    return ColumnError(&cursor->base, ctx);
  }
  return ResultCell(cursor, ctx, mapping, state);
}

// xColumn for every cell that Column does not serve directly (DirectCell).
[[gnu::noinline]] int IndirectColumn(ParquetCursor* cursor, sqlite3_context* ctx, int column) {
  sqlite3_vtab_cursor* base = &cursor->base;
  // One mapping per file column: past them come the partition keys and hidden columns.
  if (static_cast<size_t>(column) >= cursor->mappings.size()) [[unlikely]] {
    return FileConstantColumn(cursor, TableOf(base), ctx, column);
  }
  const ColumnMapping& mapping = cursor->mappings[static_cast<size_t>(column)];
  ColumnState* state = &cursor->states[static_cast<size_t>(column)];
  if (mapping.leaf_column < 0 || mapping.kind == ValueKind::kNull) [[unlikely]] {
    return OtherColumn(cursor, TableOf(base), ctx, mapping, state);
  }
  if (state->row_group != cursor->row_group || cursor->row >= state->batch_end) [[unlikely]] {
    return LoadAndResultCell(cursor, ctx, mapping, state);
  }
  return ResultCell(cursor, ctx, mapping, state);
}

// Column's cells that take two calls, out of line (tail calls), so that Column itself
// needs no stack frame of its own for them.
[[gnu::noinline]] int DirectText(sqlite3_context* ctx, const parquet::ByteArray& value) {
  ResultText(ctx, reinterpret_cast<const char*>(value.ptr), value.len);
  return SQLITE_OK;
}

// The first text cell xColumn serves from a batch: offers the batch to TerminateText
// (TerminateServedText), then serves the cell the way Column serves the batch's others.
[[gnu::noinline]] int FirstTextCell(sqlite3_context* ctx, ColumnState* state, size_t i) {
  TerminateServedText(state);
  const parquet::ByteArray& value = static_cast<const parquet::ByteArray*>(state->direct_values)[i];
  if (state->direct == DirectCell::kTerminatedText) {
    ResultTerminatedText(ctx, reinterpret_cast<const char*>(value.ptr));
    return SQLITE_OK;
  }
  return DirectText(ctx, value);
}

[[gnu::noinline]] int DirectDateText(ParquetCursor* cursor, sqlite3_context* ctx, int32_t days) {
  size_t length = 0;
  ResultTerminatedText(ctx, cursor->dates.Format(days, &length));
  return SQLITE_OK;
}

}  // namespace

namespace vtab {

// Called once per cell. The hot path: a plain leaf column whose decoded batch (without
// nulls) holds the row: two comparisons, an index and one sqlite3_result_* call on the value
// (DirectCell). Everything else is out of line (IndirectColumn). A column that is not a
// plain leaf never has its batch range set (batch_end stays 0), nor a DirectCell.
int Column(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) {
  ParquetCursor* cursor = reinterpret_cast<ParquetCursor*>(base);
  if (static_cast<size_t>(column) < cursor->num_states) [[likely]] {
    const ColumnState& state = cursor->states[static_cast<size_t>(column)];
    const int64_t row = cursor->row;
    // A batch of another row group has an empty range (ForgetBatches).
    if (row < state.batch_end) [[likely]] {
      const size_t i = static_cast<size_t>(row - state.batch_first_row);
      switch (state.direct) {
        case DirectCell::kInt32:
          sqlite3_result_int64(ctx, static_cast<const int32_t*>(state.direct_values)[i]);
          return SQLITE_OK;
        case DirectCell::kInt64:
          sqlite3_result_int64(ctx, static_cast<const int64_t*>(state.direct_values)[i]);
          return SQLITE_OK;
        case DirectCell::kDouble:
          sqlite3_result_double(ctx, static_cast<const double*>(state.direct_values)[i]);
          return SQLITE_OK;
        case DirectCell::kTerminatedText:
          ResultTerminatedText(ctx, reinterpret_cast<const char*>(static_cast<const parquet::ByteArray*>(state.direct_values)[i].ptr));
          return SQLITE_OK;
        case DirectCell::kCopiedText:
          return DirectText(ctx, static_cast<const parquet::ByteArray*>(state.direct_values)[i]);
        case DirectCell::kText:
          return FirstTextCell(ctx, &cursor->states[static_cast<size_t>(column)], i);
        case DirectCell::kDateText: {
          const int32_t days = static_cast<const int32_t*>(state.direct_values)[i];
          if (const char* text = cursor->dates.Find(days)) [[likely]] {
            ResultTerminatedText(ctx, text);
            return SQLITE_OK;
          }
          return DirectDateText(cursor, ctx, days);
        }
        case DirectCell::kNone: break;
      }
    }
  }
  return IndirectColumn(cursor, ctx, column);
}

}  // namespace vtab

}  // namespace sqlite_parquet
