// The pages of one column chunk as stored (see page_reader.h).
#include "format/read/page_reader.h"

#include <cstring>
#include <exception>
#include <utility>

#include "format/codec/checksum.h"
#include "format/codec/compression.h"
#include "format/read/decompress_ahead.h"
#include "format/common/error.h"
#include "format/index/page_index.h"
#include "format/common/physical_values.h"

namespace parquet {

namespace {

// Largest uncompressed page we accept; larger claims are treated as corrupt.
constexpr int64_t kMaxPageSize = int64_t{1} << 30;
// Bytes read past a column chunk's recorded end to complete a cut-off page header.
constexpr size_t kPageHeaderSlack = 256;
// The first read for a page header; doubled while the header does not parse.
constexpr size_t kPageHeaderGuess = 256;
// Reads are at least this large (within the chunk), and a page body read brings the next
// page's header along, so a sequential scan costs one read per page.
constexpr size_t kMinRead = 4096;

}  // namespace

void MemoryBudget::Take(uint64_t bytes) {
  if (bytes > limit_ - used_) {
    throw ParquetError("page buffers need " + std::to_string(bytes) + " more bytes, beyond the " + option_ + " of " +
                       std::to_string(limit_) + " bytes for the scan (" + std::to_string(used_) +
                       " in use by the columns read so far); raise " + option_ + " to read this file");
  }
  used_ += bytes;
  peak_ = std::max(peak_, used_);
}

PageReader::PageReader(const ParquetFileReader& file, int column, const ColumnReaderOptions& options,
                       ColumnReadCounters* counters)
    : file_(file), column_(column), options_(options), counters_(counters), min_read_(kMinRead),
      read_ahead_(kPageHeaderGuess) {
  // A remote file's reads are planned (RandomAccessFile::Prefetch): a read past the page
  // asked for would cost a request of its own when the next page was not fetched.
  if (file.file().IsRemote()) ReadNoMoreThanAsked();
  // The DecompressAhead worker reads the data pages' bodies: a header's read need not
  // bring more than the header along.
  if (options.decompress_ahead) min_read_ = 0;
}

PageReader::~PageReader() {
  if (options_.memory_budget) options_.memory_budget->Give(budget_taken_);
}

void PageReader::Reset(int row_group) {
  row_group_ = row_group;
  meta_ = &file_.column_metadata(row_group, column_);
  cipher_ = file_.column_cipher(row_group, column_);
  ColumnChunkRange range = file_.column_chunk_range(row_group, column_);
  chunk_begin_ = range.offset;
  chunk_end_ = range.offset + range.length;
  const uint64_t size = file_.file().Size();
  const uint64_t tail = uint64_t{file_.footer_length()} + 8;
  data_end_ = std::max(chunk_end_, size > tail ? size - tail : 0);
  next_page_offset_ = chunk_begin_;
  jumped_page_end_ = 0;
  window_size_ = 0;
  body_ = nullptr;
  body_fetched_ = false;
  body_size_ = 0;
  offset_index_.reset();
  offset_index_tried_ = false;
  data_page_index_ = -1;
  dictionary_pages_ = 0;
  page_ordinal_ = -1;
  if (options_.decompress_ahead) options_.decompress_ahead->MovedTo(column_, row_group);
}

bool PageReader::NextPage() {
  if (next_page_offset_ >= chunk_end_) return false;
  ReadPageHeader();
  if (header_.type == PageType::DICTIONARY_PAGE) {
    dictionary_pages_++;
  } else if (header_.type == PageType::DATA_PAGE || header_.type == PageType::DATA_PAGE_V2) {
    data_page_index_++;
  }
  return true;
}

void PageReader::ReadBody() {
  VerifyCrc();  // over the page as stored (encrypted, in an encrypted column)
  if (header_.type == PageType::DICTIONARY_PAGE) {
    DecryptPageBody(ModuleType::kDictionaryPage, -1);
  } else {
    DecryptPageBody(ModuleType::kDataPage, body_page_ordinal_);
  }
}

const uint8_t* PageReader::DataPageV1Body(size_t* size) {
  *size = static_cast<size_t>(header_.uncompressed_page_size);
  if (cipher_ == nullptr) {  // else the body's size is known only once it is decrypted
    if (const uint8_t* ready = TakeDecompressedAhead(ValueSection())) return ready;
  }
  ReadBody();
  return DecompressInto(body_, body_size_, *size, true, &page_buffer_);
}

const uint8_t* PageReader::DataPageV2Values(const PageValueSection& section) {
  if (const uint8_t* ready = TakeDecompressedAhead(section)) return ready;
  return DecompressInto(body_ + section.offset, section.stored_size, section.size, section.compressed, &page_buffer_);
}

const uint8_t* PageReader::TakeDecompressedAhead(const PageValueSection& section) {
  if (!options_.decompress_ahead || cipher_ != nullptr || !section.compressed ||
      meta_->codec == CompressionCodec::UNCOMPRESSED) {
    return nullptr;
  }
  const uint8_t* ready = options_.decompress_ahead->Take(column_, row_group_, page_offset_, section.offset,
                                                         section.stored_size, section.size);
  if (ready == nullptr) return nullptr;
  counters_->pages_decompressed_ahead++;
  // The worker read the body: count the part of it this reader has not read (none once
  // the body was fetched; for a v1 page, what its header's read did not bring along).
  const uint64_t window_end = window_offset_ + window_size_;
  const uint64_t seen = body_offset_ >= window_offset_ && body_offset_ < window_end
                            ? std::min<uint64_t>(window_end - body_offset_, body_size_)
                            : 0;
  counters_->bytes_read += body_size_ - seen;
  if (!body_fetched_) TrimWindow();  // else the levels of a v2 page are in it
  if (page_buffer_.capacity() > 0) {  // a page this reader decompressed itself is done with
    const uint64_t bytes = page_buffer_.capacity();
    page_buffer_ = std::vector<uint8_t>();
    GiveBack(bytes);
  }
  return ready;
}

void PageReader::GiveBack(uint64_t bytes) {
  if (!options_.memory_budget) return;
  bytes = std::min(bytes, budget_taken_);
  options_.memory_budget->Give(bytes);
  budget_taken_ -= bytes;
}

void PageReader::TrimWindow() {
  if (shared_window_ != nullptr || window_.capacity() <= 2 * kMinRead) return;
  // Bytes read along past the current page (the next page's header) stay.
  const uint64_t window_end = window_offset_ + window_size_;
  const uint64_t from = std::max(window_offset_, std::min(next_page_offset_, window_end));
  const size_t keep = static_cast<size_t>(window_end - from);
  if (keep > kMinRead) return;
  std::vector<uint8_t> small;
  small.reserve(kMinRead);
  small.assign(window_.data() + (from - window_offset_), window_.data() + (from - window_offset_) + keep);
  GiveBack(window_.capacity());
  if (options_.memory_budget) {
    options_.memory_budget->Take(small.capacity());  // cannot throw: less than given back
    budget_taken_ += small.capacity();
  }
  window_ = std::move(small);
  window_offset_ = from;
  window_size_ = keep;
}

PageValueSection PageReader::ValueSection() const {
  PageValueSection section;
  if (header_.type != PageType::DATA_PAGE_V2) {
    section.stored_size = body_size_;
    section.size = static_cast<size_t>(header_.uncompressed_page_size);
    return section;
  }
  const DataPageHeaderV2& h = *header_.data_page_header_v2;
  if (h.repetition_levels_byte_length < 0 || h.definition_levels_byte_length < 0 ||
      static_cast<uint64_t>(h.repetition_levels_byte_length) + static_cast<uint64_t>(h.definition_levels_byte_length) >
          body_size_ ||
      static_cast<int64_t>(h.repetition_levels_byte_length) + h.definition_levels_byte_length >
          header_.uncompressed_page_size) {
    throw ParquetError("level lengths " + std::to_string(h.repetition_levels_byte_length) + " + " +
                       std::to_string(h.definition_levels_byte_length) + " do not fit in the page");
  }
  section.offset = static_cast<size_t>(h.repetition_levels_byte_length) +
                   static_cast<size_t>(h.definition_levels_byte_length);
  section.stored_size = body_size_ - section.offset;
  section.size = static_cast<size_t>(header_.uncompressed_page_size) - section.offset;
  section.compressed = h.is_compressed && section.stored_size > 0;
  if (!section.compressed && section.stored_size == 0 && section.size != 0) {
    throw ParquetError("data page v2 has an empty value section that should hold " + std::to_string(section.size) +
                       " bytes");
  }
  return section;
}

const uint8_t* PageReader::DictionaryPageBytes(size_t* size) {
  *size = static_cast<size_t>(header_.uncompressed_page_size);
  if (options_.decompress_ahead && meta_->codec != CompressionCodec::UNCOMPRESSED) {
    // A reader the worker serves keeps no page-sized window (TrimWindow): its compressed
    // dictionary page passes a piece at a time too, straight into the dictionary's buffer.
    PageValueSection whole;
    whole.stored_size = body_size_;
    whole.size = *size;
    const uint8_t* data = DecompressValuesInPieces(whole, [this](size_t bytes) {
      GrowBuffer(&dictionary_buffer_, bytes);
      return dictionary_buffer_.data();
    });
    TrimWindow();
    return data;
  }
  ReadBody();
  const uint8_t* data = DecompressInto(body_, body_size_, *size, true, &dictionary_buffer_);
  if (data != dictionary_buffer_.data()) {
    // Uncompressed: copy, so that the dictionary's views never point into window_, which
    // the next page's read replaces.
    if (dictionary_buffer_.size() < *size) GrowBuffer(&dictionary_buffer_, *size);
    dictionary_buffer_.assign(data, data + *size);
    data = dictionary_buffer_.data();
  }
  if (options_.decompress_ahead) TrimWindow();  // the worker reads the data pages
  return data;
}

std::optional<PageJump> PageReader::FindJump(int64_t target, bool current_page_done) {
  const OffsetIndex* index = OffsetIndexForJumps();
  if (index == nullptr || index->page_locations.empty()) return std::nullopt;
  const std::vector<PageLocation>& pages = index->page_locations;
  // The last page whose first row is <= target.
  auto it = std::upper_bound(pages.begin(), pages.end(), target,
                             [](int64_t row, const PageLocation& page) { return row < page.first_row_index; });
  if (it == pages.begin()) return std::nullopt;
  const int64_t k = (it - pages.begin()) - 1;
  if (k <= data_page_index_ || (k == data_page_index_ + 1 && current_page_done)) return std::nullopt;
  // Never back over bytes already passed (an index that disagrees with the pages walked),
  // nor outside the chunk's data (an index given through SetOffsetIndex is not validated).
  const PageLocation& page = pages[static_cast<size_t>(k)];
  if (page.offset < 0 || static_cast<uint64_t>(page.offset) < next_page_offset_ ||
      static_cast<uint64_t>(page.offset) >= data_end_ || pages[0].offset > page.offset) {
    return std::nullopt;
  }
  PageJump jump;
  jump.page = k;
  jump.offset = page.offset;
  jump.size = page.compressed_page_size;
  jump.first_row = page.first_row_index;
  const int64_t end_row = static_cast<size_t>(k) + 1 < pages.size() ? pages[static_cast<size_t>(k) + 1].first_row_index
                                                                    : file_.row_group_num_rows(row_group_);
  jump.rows = end_row - page.first_row_index;
  return jump;
}

void PageReader::JumpTo(const PageJump& jump) {
  next_page_offset_ = static_cast<uint64_t>(jump.offset);
  data_page_index_ = jump.page - 1;
  page_ordinal_ = dictionary_pages_ + static_cast<int>(jump.page) - 1;
  // Read the page (header and body: its compressed_page_size) in one read of just it.
  const uint64_t page_end = std::min<uint64_t>(data_end_, next_page_offset_ + static_cast<uint64_t>(jump.size));
  jumped_page_end_ = page_end;
  if (page_end > next_page_offset_) {
    Fetch(next_page_offset_, static_cast<size_t>(page_end - next_page_offset_), std::max(chunk_end_, page_end), 0);
  }
}

std::string PageReader::Context() const {
  std::string text = file_.Describe(row_group_, column_);
  if (page_ordinal_ >= 0) text += ", page " + std::to_string(page_ordinal_);
  return text;
}

const uint8_t* PageReader::Fetch(uint64_t offset, size_t length, uint64_t limit, size_t min_read) {
  std::vector<uint8_t>& window = shared_window_ != nullptr ? shared_window_->bytes : window_;
  if (shared_window_ != nullptr && shared_window_->holder != this) {
    window_size_ = 0;  // another reader's bytes now
    shared_window_->holder = this;
  }
  const uint64_t window_end = window_offset_ + window_size_;
  if (offset >= window_offset_ && offset + length <= window_end) return window.data() + (offset - window_offset_);
  const uint64_t read_end = std::min(limit, std::max(offset + length + read_ahead_, offset + min_read));
  const size_t total = static_cast<size_t>(std::max(read_end, offset + length) - offset);
  size_t keep = 0;
  if (offset >= window_offset_ && offset < window_end) {
    keep = static_cast<size_t>(window_end - offset);
    std::memmove(window.data(), window.data() + (offset - window_offset_), keep);
  }
  GrowBuffer(&window, total);
  file_.file().ReadAt(offset + keep, total - keep, window.data() + keep);
  counters_->bytes_read += total - keep;
  window_offset_ = offset;
  window_size_ = total;
  return window.data();
}

void PageReader::ReadPageHeader() {
  page_ordinal_++;
  const uint64_t offset = next_page_offset_;
  page_offset_ = offset;
  uint64_t limit = chunk_end_;
  size_t want = kPageHeaderGuess;
  // A page smaller than the guess, landed on by a jump: the first try reads only the page
  // (the bytes after it, a page not selected, would cost a remote file a request).
  if (jumped_page_end_ > offset) want = static_cast<size_t>(std::min<uint64_t>(want, jumped_page_end_ - offset));
  jumped_page_end_ = 0;
  size_t header_size = 0;
  while (cipher_ == nullptr) {
    const size_t available = static_cast<size_t>(std::min<uint64_t>(want, limit - offset));
    const uint8_t* data = Fetch(offset, available, limit);
    try {
      header_ = ParsePageHeader(data, available, &header_size);
      break;
    } catch (const ParquetError&) {
      if (available < limit - offset) {
        want *= 2;  // a header larger than the read so far
      } else if (limit == chunk_end_ && chunk_end_ < data_end_) {
        // A header cut off by a too-small total_compressed_size (PARQUET-816): retry with
        // the bytes that follow the chunk.
        limit = std::min<uint64_t>(data_end_, chunk_end_ + kPageHeaderSlack);
      } else {
        throw;
      }
    }
  }
  if (cipher_ != nullptr) header_size = DecryptPageHeader(offset, data_end_);
  body_offset_ = offset + header_size;
  body_ = nullptr;
  body_fetched_ = false;
  if (header_.compressed_page_size < 0) {
    throw ParquetError("invalid compressed page size " + std::to_string(header_.compressed_page_size));
  }
  body_size_ = static_cast<size_t>(header_.compressed_page_size);
  body_encrypted_ = cipher_ != nullptr;
  if (body_encrypted_) {
    body_size_ = EncryptedModuleSize(body_offset_, data_end_);
    body_page_ordinal_ = static_cast<int>(data_page_index_ + 1);  // for a data page
  }
  const uint64_t body_end = body_offset_ + body_size_;
  if (body_end > chunk_end_) {
    // PARQUET-816 again: the page runs past the chunk's recorded end, but not into the footer.
    if (body_end > data_end_) {
      throw ParquetError("page of " + std::to_string(header_.compressed_page_size) +
                         " bytes overruns the column chunk (" +
                         std::to_string(chunk_end_ > body_offset_ ? chunk_end_ - body_offset_ : 0) +
                         " bytes left)");
    }
    chunk_end_ = body_end;
  }
  if (header_.uncompressed_page_size < 0) {
    throw ParquetError("invalid uncompressed page size " + std::to_string(header_.uncompressed_page_size));
  }
  if (header_.uncompressed_page_size > kMaxPageSize) {
    throw ParquetError("uncompressed page size " + std::to_string(header_.uncompressed_page_size) +
                       " is above the " + std::to_string(kMaxPageSize) + " bytes this reader accepts per page");
  }
  next_page_offset_ = body_end;
}

void PageReader::FetchBody() {
  if (body_fetched_) return;
  body_ = Fetch(body_offset_, body_size_, chunk_end_);
  body_fetched_ = true;
}

size_t PageReader::DecryptPageHeader(uint64_t offset, uint64_t limit) {
  const bool first = offset == chunk_begin_;
  const bool dictionary_first = first && meta_->dictionary_page_offset.has_value() && *meta_->dictionary_page_offset > 0;
  ModuleType type = dictionary_first ? ModuleType::kDictionaryPageHeader : ModuleType::kDataPageHeader;
  size_t size = 0;
  try {
    size = DecryptHeaderModule(type, offset, limit);
  } catch (const ParquetError& first_error) {
    if (!first) throw;
    // Writers disagree on whether an absent dictionary still gets a dictionary_page_offset:
    // try the other kind, but report the first failure.
    const ModuleType other = dictionary_first ? ModuleType::kDataPageHeader : ModuleType::kDictionaryPageHeader;
    try {
      size = DecryptHeaderModule(other, offset, limit);
    } catch (const ParquetError&) {
      throw first_error;
    }
    type = other;
  }
  header_ = ParsePageHeader(decrypted_header_.data(), decrypted_header_.size(), nullptr);
  const bool is_dictionary = header_.type == PageType::DICTIONARY_PAGE;
  if (is_dictionary != (type == ModuleType::kDictionaryPageHeader)) {
    throw ParquetError(std::string(ModuleTypeName(type)) + " holds a page of another kind");
  }
  return size;
}

size_t PageReader::EncryptedModuleSize(uint64_t offset, uint64_t limit) {
  if (offset > limit || limit - offset < kModuleLengthPrefix) {
    throw ParquetError("encrypted module at offset " + std::to_string(offset) + " is cut off by the column chunk's end");
  }
  const uint64_t size = kModuleLengthPrefix + uint64_t{LoadLittleEndian32(Fetch(offset, kModuleLengthPrefix, limit))};
  if (size > limit - offset) {
    throw ParquetError("encrypted module of " + std::to_string(size) + " bytes at offset " + std::to_string(offset) +
                       " overruns the column chunk (" + std::to_string(limit - offset) + " bytes left)");
  }
  return static_cast<size_t>(size);
}

size_t PageReader::DecryptHeaderModule(ModuleType type, uint64_t offset, uint64_t limit) {
  const int ordinal = type == ModuleType::kDataPageHeader ? static_cast<int>(data_page_index_ + 1) : -1;
  const size_t size = EncryptedModuleSize(offset, limit);
  return cipher_->Decrypt(type, Fetch(offset, size, limit), size, row_group_, column_, ordinal, &decrypted_header_);
}

void PageReader::DecryptPageBody(ModuleType type, int page_ordinal) {
  if (!body_encrypted_) return;
  FetchBody();
  size_t used = cipher_->Decrypt(type, body_, body_size_, row_group_, column_, page_ordinal, &decrypted_body_);
  if (used != body_size_) {
    throw ParquetError(std::string("encrypted ") + ModuleTypeName(type) + " of " + std::to_string(used) +
                       " bytes does not fill the page's " + std::to_string(body_size_) + " bytes");
  }
  body_ = decrypted_body_.data();
  body_size_ = decrypted_body_.size();
  body_encrypted_ = false;
}

const OffsetIndex* PageReader::OffsetIndexForJumps() {
  if (!offset_index_ && !offset_index_tried_ && options_.use_offset_index) {
    offset_index_tried_ = true;
    const ColumnChunk& chunk = file_.row_group(row_group_).columns[static_cast<size_t>(column_)];
    try {
      std::optional<OffsetIndex> index = ReadOffsetIndex(file_, row_group_, column_);
      if (index.has_value()) {
        counters_->bytes_read += static_cast<uint64_t>(chunk.offset_index_length.value_or(0));
        offset_index_ = std::make_shared<const OffsetIndex>(std::move(*index));
      }
    } catch (const ParquetError&) {
      // An unusable offset index: walk the page headers instead.
    }
  }
  return offset_index_.get();
}

void PageReader::VerifyCrc() {
  FetchBody();
  if (!options_.verify_crc || !header_.crc.has_value()) return;
  CheckCrc(Crc32(body_, body_size_));
}

void PageReader::CheckCrc(uint32_t computed) const {
  if (!options_.verify_crc || !header_.crc.has_value()) return;
  if (computed != static_cast<uint32_t>(*header_.crc)) {
    throw ParquetError("page CRC mismatch (stored " + std::to_string(static_cast<uint32_t>(*header_.crc)) +
                       ", computed " + std::to_string(computed) + ")");
  }
}

const uint8_t* PageReader::DecompressInto(const uint8_t* src, size_t src_size, size_t uncompressed_size, bool compressed,
                                          std::vector<uint8_t>* buffer) {
  if (!compressed || meta_->codec == CompressionCodec::UNCOMPRESSED) {
    if (src_size != uncompressed_size) {
      throw ParquetError("uncompressed page of " + std::to_string(src_size) + " bytes claims " +
                         std::to_string(uncompressed_size) + " bytes");
    }
    return src;
  }
  RequirePlausibleSize(src, src_size, src_size, uncompressed_size);  // before allocating for the claim
  GrowBuffer(buffer, uncompressed_size);
  Decompress(meta_->codec, src, src_size, buffer->data(), uncompressed_size);
  return buffer->data();
}

void PageReader::RequirePlausibleSize(const uint8_t* src, size_t available, size_t src_size, size_t claimed) const {
  const uint64_t most = MaxDecompressedSize(meta_->codec, src, available, src_size);
  if (claimed > most) {
    throw ParquetError("page claims " + std::to_string(claimed) + " uncompressed bytes, more than its " +
                       std::to_string(src_size) + " " + ToString(meta_->codec) + " bytes can hold (at most " +
                       std::to_string(most) + ")");
  }
}

class PageReader::BodyPieces final : public CompressedPieces {
 public:
  // Pieces from `from` bytes into the body; the bytes before are read and checked too.
  BodyPieces(PageReader& reader, size_t from) : reader_(reader) {
    if (from > 0) Crc(reader_.Fetch(reader_.body_offset_, from, reader_.chunk_end_, 0), from);
  }
  size_t Next(const uint8_t** piece) override {
    if (peeked_) {
      peeked_ = false;
      *piece = last_;
      return last_size_;
    }
    const size_t size = std::min(kBodyPiece, reader_.body_size_ - read_);
    if (size == 0 || error_) return 0;
    try {
      last_ = reader_.Fetch(reader_.body_offset_ + read_, size, reader_.chunk_end_, 0);
    } catch (...) {
      error_ = std::current_exception();  // raised by Finish, outside the codec's code
      return 0;
    }
    Crc(last_, size);
    *piece = last_;
    return last_size_ = size;
  }
  // The next piece, which the following Next gives again.
  size_t Peek(const uint8_t** piece) {
    const size_t size = Next(piece);
    peeked_ = size > 0;
    return size;
  }
  // After decompressing: reads what the codec left (a page it found damaged), then raises
  // the read's error, if any, or checks the CRC of the whole body.
  void Finish() {
    const uint8_t* rest = nullptr;
    peeked_ = false;
    while (Next(&rest) > 0) {
    }
    if (error_) std::rethrow_exception(error_);
    reader_.CheckCrc(crc_);
  }

 private:
  void Crc(const uint8_t* bytes, size_t size) {
    crc_ = Crc32(crc_, bytes, size);
    read_ += size;
  }

  PageReader& reader_;
  size_t read_ = 0;  // bytes of the body read so far
  uint32_t crc_ = 0;
  const uint8_t* last_ = nullptr;  // the last piece read
  size_t last_size_ = 0;
  bool peeked_ = false;  // Next gives last_ again
  std::exception_ptr error_;
};

uint8_t* PageReader::DecompressValuesInPieces(const PageValueSection& section,
                                              const std::function<uint8_t*(size_t)>& destination) {
  if (cipher_ != nullptr || !DecompressesInPieces(meta_->codec) || body_size_ <= kBodyPiece) {
    ReadBody();
    const uint8_t* src = body_ + section.offset;
    RequirePlausibleSize(src, section.stored_size, section.stored_size, section.size);
    uint8_t* dst = destination(section.size);
    if (dst != nullptr) Decompress(meta_->codec, src, section.stored_size, dst, section.size);
    return dst;
  }
  BodyPieces pieces(*this, section.offset);
  const uint8_t* first = nullptr;
  const size_t first_size = pieces.Peek(&first);
  if (first_size == 0) pieces.Finish();  // the read's error
  RequirePlausibleSize(first, first_size, section.stored_size, section.size);
  uint8_t* dst = destination(section.size);
  if (dst == nullptr) return nullptr;
  try {
    DecompressPieces(meta_->codec, pieces, section.stored_size, dst, section.size);
  } catch (const ParquetError&) {
    pieces.Finish();  // a read error, or a damaged page (its CRC), explains it better
    throw;
  }
  pieces.Finish();
  return dst;
}

}  // namespace parquet
