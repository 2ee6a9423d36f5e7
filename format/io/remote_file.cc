// RemoteFile: a RandomAccessFile over ranged HTTP GETs, with the footer prefetch and cache,
// version checks, coalesced parallel prefetch and on-demand reads of remote_file.h.
#include "format/io/remote_file.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>
#include <system_error>
#include <thread>

#include <openssl/evp.h>

#include "format/common/threads.h"
#include "format/common/error.h"
#include "format/io/s3.h"
#include "format/values/text.h"

namespace parquet {

namespace {

// `prefix` is lowercase.
bool StartsWithNoCase(const std::string& text, std::string_view prefix) {
  return AsciiLowercase(text.substr(0, prefix.size())) == prefix;
}

// The version of an object as its responses give it.
struct ObjectVersion {
  std::string etag;
  std::string last_modified;

  // Only an RFC 9110 entity-tag and HTTP-date count: anything else the server sent is
  // ignored (the object is then unversioned) rather than echoed in If-Match to every origin.
  static ObjectVersion Of(const HttpResponse& response) {
    const std::string etag = response.Header("etag"), last_modified = response.Header("last-modified");
    return ObjectVersion{IsEntityTag(etag) ? etag : "", IsHttpDate(last_modified) ? last_modified : ""};
  }
  bool empty() const { return etag.empty() && last_modified.empty(); }
  std::string Key() const { return etag + "\n" + last_modified; }
};

// The bytes kept of an object: its version, size and the tail holding the footer.
struct CachedFooter {
  ObjectVersion version;
  uint64_t size = 0;
  uint64_t tail_offset = 0;
  std::vector<uint8_t> tail;
};

// Footers of recently opened remote files, keyed by request identity (one version each, the
// last seen); least recently used entries go first beyond kMaxEntries or kMaxBytes.
class FooterCache {
 public:
  std::shared_ptr<const CachedFooter> Find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == key) {
        entries_.splice(entries_.begin(), entries_, it);
        return entries_.front().second;
      }
    }
    return nullptr;
  }
  void Put(const std::string& key, std::shared_ptr<const CachedFooter> footer) {
    std::lock_guard<std::mutex> lock(mutex_);
    Erase(key);
    bytes_ += Bytes(*footer);
    entries_.emplace_front(key, std::move(footer));
    while (entries_.size() > 1 && (entries_.size() > kMaxEntries || bytes_ > kMaxBytes)) {
      bytes_ -= Bytes(*entries_.back().second);
      entries_.pop_back();
    }
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.clear();
    bytes_ = 0;
  }

 private:
  static constexpr size_t kMaxEntries = 128;
  static constexpr uint64_t kMaxBytes = 32ull << 20;
  static uint64_t Bytes(const CachedFooter& footer) { return footer.tail.size(); }
  void Erase(const std::string& key) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == key) {
        bytes_ -= Bytes(*it->second);
        entries_.erase(it);
        return;
      }
    }
  }
  std::mutex mutex_;
  std::list<std::pair<std::string, std::shared_ptr<const CachedFooter>>> entries_;
  uint64_t bytes_ = 0;
};

// An object, not a pointer never freed: its footers go with the extension when SQLite
// unloads it (a leak LeakSanitizer reports otherwise) and at exit.
FooterCache& Footers() {
  static FooterCache cache;
  return cache;
}

// What makes two opens ask the same server for the same bytes: the URL actually requested
// (scheme, endpoint, URL style, bucket and key, or the https URL with its query), the SigV4
// scope and access key id (never the secret), every header sent and the CA bundle. The
// footer cache is keyed by its SHA-256 (the 32 bytes), so that no token or presigned signature
// stays in the cache's keys, and an endpoint answering with another one's ETag, Last-Modified
// and size never hands its bytes to a table reading that other endpoint.
std::string RequestIdentity(const HttpRequest& request) {
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1) {
    throw ParquetError("cannot key the remote footer cache: SHA-256 failed");
  }
  auto add = [&](std::string_view part) {
    const uint64_t length = part.size();  // length-prefixed: no two lists of parts hash alike
    EVP_DigestUpdate(context.get(), &length, sizeof length);
    EVP_DigestUpdate(context.get(), part.data(), part.size());
  };
  add(request.url);
  add(request.aws_sigv4);
  const std::string_view credentials = request.aws_credentials;
  add(credentials.substr(0, credentials.find(':')));  // the access key id only
  for (const SecretString& header : request.headers) add(header);
  for (const std::string& header : request.any_origin_headers) add(header);
  add(request.ca_file);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int digest_length = 0;
  if (EVP_DigestFinal_ex(context.get(), digest, &digest_length) != 1) {
    throw ParquetError("cannot key the remote footer cache: SHA-256 failed");
  }
  return std::string(reinterpret_cast<const char*>(digest), digest_length);  // compared, never shown
}

// Parses "bytes FIRST-LAST/TOTAL" (TOTAL may be "*"); false when malformed.
bool ParseContentRange(const std::string& text, uint64_t* first, uint64_t* last, uint64_t* total) {
  unsigned long long a = 0, b = 0, t = 0;
  if (std::sscanf(text.c_str(), "bytes %llu-%llu/%llu", &a, &b, &t) == 3) {
    *first = a;
    *last = b;
    *total = t;
    return true;
  }
  if (std::sscanf(text.c_str(), "bytes */%llu", &t) == 1) {
    *first = 1;
    *last = 0;
    *total = t;
    return true;
  }
  return false;
}

// A response's Content-Length (of a 200: the object's size), if it is a plain number.
std::optional<uint64_t> ContentLength(const HttpResponse& response) {
  const std::string text = response.Header("content-length");
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stoull(text);
}

// What a statement's check of an object compares: its version and size.
std::string CheckKey(const CachedFooter& footer) { return footer.version.Key() + "\n" + std::to_string(footer.size); }

// A strong entity-tag compares byte for byte (If-Match, If-None-Match on a range); a weak one
// ("W/") only says two representations are equivalent.
bool IsStrongEntityTag(const std::string& etag) { return !etag.empty() && etag.rfind("W/", 0) != 0; }

constexpr uint64_t kPrefetchBudget = 256ull << 20;  // bytes one Prefetch holds at most
constexpr uint64_t kMaxTailExtension = 16ull << 20;  // a read reaching into the tail joins it (and the cache) up to this
constexpr uint64_t kOnDemandBudget = 64ull << 20;   // bytes of on-demand reads kept
// A Prefetch round wanting at most kSmallRound bytes (a point lookup's pages) merges ranges
// up to kSmallRoundCoalesceGap apart rather than kCoalesceGap.
constexpr uint64_t kSmallRound = 4ull << 20;
constexpr uint64_t kSmallRoundCoalesceGap = 256 * 1024;

class RemoteFile final : public RandomAccessFile {
 public:
  RemoteFile(const std::string& url, const RemoteOptions& options)
      : shown_url_(UrlForDisplay(url)), attempts_(std::max(1, options.attempts)),
        request_(PrepareRemoteRequest(url, options)), request_identity_(RequestIdentity(request_)),
        checks_(options.statement_checks),
        ambient_credentials_(options.s3_access_key_id.empty() && !request_.aws_credentials.empty()),
        read_ahead_limit_(std::min(options.read_ahead_bytes, kMaxReadAheadBytes)) {}
  ~RemoteFile() override {
    StopAhead();
    StopCheck();
  }
  RemoteFile(const RemoteFile&) = delete;
  RemoteFile& operator=(const RemoteFile&) = delete;

  uint64_t Size() const override { return size_; }
  const std::string& Name() const override { return shown_url_; }
  TransferCounters Transfer() const override {
    std::lock_guard<std::mutex> lock(ahead_mutex_);
    // A check in flight counts as the file's (its object is this file's until it ends).
    const uint64_t check_requests = checker_ ? checker_->requests_.load() : 0;
    const uint64_t check_bytes = checker_ ? checker_->bytes_.load() : 0;
    return TransferCounters{requests_.load() + check_requests, bytes_.load() + check_bytes, ahead_peak_};
  }

  // Opens the object: from the footer cache when this statement checked it already, else
  // with OpenTail (a conditional request when the footer cache or `store` knows a version).
  void Open(MetadataStore* store) {
    PrepareOpen(store);
    MakeOpenRequest(nullptr);
    FinishOpen();
  }

  // Opens the object as Open does, except that an object whose footer the process's cache
  // holds with a strong ETag, not checked in this statement, is opened at once from that
  // footer while its check (the same conditional request, made by `checker`, a file of the
  // same URL and options of its own) runs on a thread of its own: this file's reads carry
  // If-Match with the cached ETag meanwhile, and ConfirmVersion ends the check.
  void OpenOverlapped(std::unique_ptr<RemoteFile> checker, MetadataStore* store) {
    PrepareOpen(store);
    if (!kThreadsEnabled || checked_ || !known_ || stored_known_ || !IsStrongEntityTag(known_->version.etag)) {
      MakeOpenRequest(nullptr);
      FinishOpen();
      return;
    }
    checker->known_ = known_;
    checker_ = std::move(checker);
    pending_known_ = known_;
    check_done_ = false;
    try {
      check_thread_ = std::thread([this] { RunCheck(); });
    } catch (const std::system_error&) {  // no thread to be had: the check first, as Open
      checker_.reset();
      pending_known_.reset();
      MakeOpenRequest(nullptr);
      FinishOpen();
      return;
    }
    UseVersion(known_->version, known_->size);
    FinishOpen(/*note_check=*/false);
  }

  bool VersionPending() const override { return pending_known_ != nullptr || replaced_; }

  void ConfirmVersion() override {
    if (replaced_) throw RemoteFileReplaced("remote file " + shown_url_ + " was replaced since its footer was cached: read again");
    if (!pending_known_) return;
    if (check_thread_.joinable()) {
      std::unique_lock<std::mutex> lock(check_mutex_);
      while (!check_finished_.wait_for(lock, std::chrono::milliseconds(50), [this] { return check_done_; })) {
        if (HttpInterruptRequested()) check_abort_ = true;  // the request ends, and the wait with it
      }
      lock.unlock();
      check_thread_.join();
      requests_ += checker_->requests_.load();
      bytes_ += checker_->bytes_.load();
      if (!check_error_) seen_ = checker_->known_;
      checker_.reset();
    }
    // An error (an interrupt too) stays the answer: nothing read is confirmed.
    if (check_error_) std::rethrow_exception(check_error_);
    const std::string seen = CheckKey(*seen_);
    const bool same = seen == CheckKey(*pending_known_);
    pending_known_.reset();
    // The version found counts as checked (a replaced object's new tail is in the footer
    // cache: opening it again costs no request); an unversioned one is never noted.
    if (checks_ && !seen_->version.empty()) checks_->Note(request_identity_, seen);
    if (!same) {
      // What this file holds is of the old version: it stays replaced (every later
      // ConfirmVersion throws again), never confirmed, whoever asks.
      replaced_ = true;
      throw RemoteFileReplaced("remote file " + shown_url_ + " was replaced since its footer was cached: read again");
    }
  }

  // Opening in three steps, the request alone on any thread (ValidateRemoteFiles). First, on
  // the opening thread: what is known of the object, from the process's footer cache or,
  // failing that, from `store` (may be null): a row with a strong ETag, whose tail ends at
  // the size it states, becomes the footer the request's If-None-Match asks about.
  void PrepareOpen(MetadataStore* store) {
    known_ = Footers().Find(request_identity_);
    if (known_ && checks_ && checks_->Checked(request_identity_) == CheckKey(*known_)) {
      checked_ = true;
      return;
    }
    if (known_ || store == nullptr) return;
    std::shared_ptr<const StoredTail> stored = store->Find(Key());
    constexpr std::string_view kEtag = "etag:";
    if (!stored || stored->version.validator.compare(0, kEtag.size(), kEtag) != 0) return;
    const std::string etag = stored->version.validator.substr(kEtag.size());
    // The ETag is sent in If-None-Match: only an RFC 9110 strong entity-tag (no control character).
    if (!IsEntityTag(etag) || !IsStrongEntityTag(etag) || !FitsFileEnd(stored->tail, stored->version.size) ||
        stored->tail.bytes.size() > kMaxRemoteFooterBytes + kMaxStoredPageIndexSpan) {
      return;
    }
    auto footer = std::make_shared<CachedFooter>();
    footer->version.etag = etag;
    footer->size = stored->version.size;
    footer->tail_offset = stored->tail.offset;
    footer->tail = stored->tail.bytes;
    known_ = stored_known_ = std::move(footer);
  }
  // Second: the request, unless the statement checked the object already; `abort` (may be
  // null) stops it from another thread.
  void MakeOpenRequest(const std::atomic<bool>* abort) {
    open_abort_ = abort;
    if (checked_) {
      UseVersion(known_->version, known_->size);
    } else {
      known_ = OpenTail(std::move(known_));
    }
    open_abort_ = nullptr;
  }
  // Third, on the opening thread: the tail becomes the file's. A tail that came from a
  // database's row (which the database's author may have forged, with the object's real
  // ETag) serves only the table whose store it came from: it never joins the process's
  // footer cache nor the statement's checks, which other tables, other connections and the
  // metadata functions trust (docs/security.md).
  // `note_check` false: the check is still in flight (OpenOverlapped), ConfirmVersion notes it.
  void FinishOpen(bool note_check = true) {
    std::shared_ptr<const CachedFooter> footer = std::move(known_);
    stored_tail_used_ = stored_known_ && footer == stored_known_;  // the server's 304 confirmed the row
    tail_offset_ = footer->tail_offset;
    AddSegment(footer->tail_offset, footer->tail, Kind::kPinned);
    if (note_check && !version_.empty() && checks_ && !stored_tail_used_) checks_->Note(request_identity_, CheckKey(*footer));
  }


  bool StoredTailUsed() const override { return stored_tail_used_; }
  std::optional<uint64_t> HeldTailOffset() const override {
    return segments_.count(tail_offset_) ? std::optional<uint64_t>(tail_offset_) : std::nullopt;
  }
  // Objects with a strong ETag only: the store's rows are validated by If-None-Match.
  std::optional<FileVersion> Version() const override {
    if (!IsStrongEntityTag(version_.etag)) return std::nullopt;
    return FileVersion{Key(), shown_url_, size_, "etag:" + version_.etag, ambient_credentials_};
  }

  // The object's tail as OpenTail fetched it or the cache held it (FetchRemoteTail).
  RemoteTail Tail() const {
    RemoteTail tail{size_, version_.etag, version_.last_modified, tail_offset_, {}, requests_.load()};
    if (auto it = segments_.find(tail_offset_); it != segments_.end()) tail.bytes = it->second.bytes;
    return tail;
  }

 private:
  // The check of OpenOverlapped, on its own thread: checker_ makes the conditional request.
  void RunCheck() {
    std::exception_ptr error;
    try {
      checker_->MakeOpenRequest(&check_abort_);
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(check_mutex_);
    check_error_ = error;
    check_done_ = true;
    check_finished_.notify_all();
  }

  // A check still in flight when the file closes is aborted and waited for.
  void StopCheck() {
    if (!check_thread_.joinable()) return;
    check_abort_ = true;
    check_thread_.join();
  }

  // Runs `fetch`; when it fails while the statement's check is in flight (an object replaced
  // answers If-Match with 412), the check is waited for first, so that a replaced object is
  // RemoteFileReplaced (read again), not an error.
  template <typename Fetch>
  auto Confirming(Fetch fetch) -> decltype(fetch()) {
    try {
      return fetch();
    } catch (const HttpInterrupted&) {
      throw;
    } catch (const ParquetError&) {
      if (pending_known_) ConfirmVersion();
      throw;
    }
  }

  // The size, the version and the tail of the object, in one request: the last bytes
  // (Range: bytes=-N, N at least kFirstTailRequest, more when the tail of `known`, the
  // object's cached footer, is longer), with If-None-Match when `known` has a strong ETag,
  // so that a 304 confirms `known`. A server that answers a suffix range with something else (the whole
  // object in a 200, cut at N bytes; a 416; another range, as s3rver does) costs a second
  // request for the tail (and a third, bytes 0-3, when its answer did not give the size).
  std::shared_ptr<const CachedFooter> OpenTail(std::shared_ptr<const CachedFooter> known) {
    HttpRequest request = request_;
    request.abort = open_abort_;
    const uint64_t asked = std::max<uint64_t>(known ? known->tail.size() : 0, kFirstTailRequest);
    request.suffix_length = asked;
    request.max_body = asked;
    request.keep_truncated_body = true;  // a 200 of the whole object stops at `asked` bytes
    const bool conditional = known && IsStrongEntityTag(known->version.etag);
    if (conditional) request.any_origin_headers.push_back("If-None-Match: " + known->version.etag);
    HttpResponse response = Perform(request);
    auto footer = std::make_shared<CachedFooter>();
    footer->version = ObjectVersion::Of(response);
    uint64_t first = 0, last = 0, total = 0;
    std::optional<uint64_t> size;  // known, the tail still to fetch
    switch (response.status) {
      case 304:
        // Not modified: what `known` holds is the object's (a 304 naming another ETag is not).
        if (!conditional || (!footer->version.etag.empty() && footer->version.etag != known->version.etag)) {
          throw ParquetError("cannot read " + shown_url_ + ": the server answered 304 (not modified) to a request "
                             "that does not allow it");
        }
        UseVersion(known->version, known->size);
        return known;
      case 206:
        if (!ParseContentRange(response.Header("content-range"), &first, &last, &total) || first > last ||
            last >= total) {
          throw ParquetError("cannot read " + shown_url_ + ": the server's partial response (HTTP 206) has no valid "
                             "Content-Range");
        }
        if (last == total - 1 && total - first == std::min(asked, total)) {  // the suffix asked for
          if (response.truncated || response.body.size() != total - first) {
            throw ParquetError("cannot read " + shown_url_ + ": asked for the last " + std::to_string(total - first) +
                               " bytes, received " + std::to_string(response.body.size()) +
                               (response.truncated ? " or more" : ""));
          }
          footer->tail_offset = first;
          footer->tail = std::move(response.body);
          UseVersion(footer->version, total);
          return Keep(std::move(footer));
        }
        size = total;  // another range: the server does not take suffixes, its size is known
        break;
      case 200:
        if (!response.truncated) {  // the whole object, no longer than `asked`
          footer->tail = std::move(response.body);
          UseVersion(footer->version, footer->tail.size());
          return Keep(std::move(footer));
        }
        size = ContentLength(response);
        break;
      case 416:
        // A suffix is satisfiable for any object but an empty one: "bytes */0".
        if (ParseContentRange(response.Header("content-range"), &first, &last, &total) && first > last) {
          if (total == 0) {
            UseVersion(footer->version, 0);
            return Keep(std::move(footer));
          }
          size = total;
        }
        break;
      default:
        throw ParquetError(RemoteStatusError(response.status, "read " + shown_url_));
    }
    if (!size) size = ProbeSize(&footer->version);
    UseVersion(footer->version, *size);
    if (size_ == 0) return Keep(std::move(footer));
    const uint64_t tail_length = std::min(size_, std::clamp(size_ / 1000, kMinFooterPrefetch, kMaxFooterPrefetch));
    ObjectVersion seen;
    footer->tail_offset = size_ - tail_length;
    footer->tail = FetchRange(footer->tail_offset, tail_length, open_abort_, &seen);
    if (footer->version.empty() && !seen.empty()) {
      footer->version = seen;
      UseVersion(seen, size_);  // (unversioned until now: no condition was set)
    }
    return Keep(std::move(footer));
  }

  // The size and version of the object from bytes 0-3 (a server that did not say them in
  // its answer to the suffix range); the version only when *version has none.
  uint64_t ProbeSize(ObjectVersion* version) {
    HttpRequest request = request_;
    request.abort = open_abort_;
    request.range = std::make_pair(uint64_t{0}, uint64_t{3});
    request.max_body = 4;
    HttpResponse response = Perform(request);
    uint64_t first = 0, last = 0, total = 0;
    uint64_t size = 0;
    if (response.status == 206) {
      if (!ParseContentRange(response.Header("content-range"), &first, &last, &total) || first != 0 ||
          response.body.size() != std::min<uint64_t>(total, 4)) {
        throw ParquetError("cannot read " + shown_url_ + ": the server's partial response is malformed");
      }
      size = total;
    } else if (response.status == 200) {
      size = response.body.size();  // the whole object, at most 4 bytes (max_body)
    } else if (response.status == 416) {
      size = ParseContentRange(response.Header("content-range"), &first, &last, &total) ? total : 0;
      if (size != 0) throw ParquetError("cannot read " + shown_url_ + ": the server refuses range requests");
    } else {
      throw ParquetError(RemoteStatusError(response.status, "read " + shown_url_));
    }
    if (version->empty()) *version = ObjectVersion::Of(response);
    return size;
  }

  // The store's key of the object: the request identity in hex.
  std::string Key() const {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string key;
    for (unsigned char c : request_identity_) key += {kHex[c >> 4], kHex[c & 15]};
    return key;
  }

  // The object's version and size become this file's; later requests are conditional on it.
  void UseVersion(const ObjectVersion& version, uint64_t size) {
    size_ = size;
    version_ = version;
    if (IsStrongEntityTag(version_.etag)) {
      request_.any_origin_headers.push_back("If-Match: " + version_.etag);
    } else if (!version_.last_modified.empty()) {
      request_.any_origin_headers.push_back("If-Unmodified-Since: " + version_.last_modified);
    }
  }

  // `footer`, the object this file now reads (its version and size UseVersion'd), kept in
  // the footer cache when versioned.
  std::shared_ptr<const CachedFooter> Keep(std::shared_ptr<CachedFooter> footer) {
    footer->size = size_;
    if (!footer->version.empty()) Footers().Put(request_identity_, footer);
    return footer;
  }

 public:
  void ReadAt(uint64_t offset, size_t length, uint8_t* out) override {
    CheckRange(offset, length);
    uint64_t position = offset;
    const uint64_t end = offset + length;
    while (position < end) {
      auto it = SegmentAt(position);
      if (it != segments_.end()) {
        const Segment& segment = it->second;
        const uint64_t available = std::min(end, it->first + segment.bytes.size()) - position;
        std::memcpy(out + (position - offset), segment.bytes.data() + (position - it->first), available);
        position += available;
        continue;
      }
      if (ClaimAhead(position)) continue;
      if (tail_offset_ > 0 && position < tail_offset_ && end > tail_offset_ &&
          tail_offset_ - position <= kMaxTailExtension) {
        Confirming([&] { ExtendTail(position); });  // a footer larger than the tail fetched at open
        continue;
      }
      // Sequential misses (a chunk nobody prefetched) read ahead more each time, up to 8 MiB.
      on_demand_read_ = position == last_miss_end_ ? std::min(on_demand_read_ * 2, kMaxPieceSize) : kMinOnDemandRead;
      const uint64_t next = std::min(NextSegmentStart(position), NextAheadStart(position));
      const uint64_t fetch_end = std::min({next, std::max(end, position + on_demand_read_), size_});
      AddSegment(position, Confirming([&] { return FetchRange(position, fetch_end - position); }), Kind::kOnDemand);
      last_miss_end_ = fetch_end;
    }
  }
  using RandomAccessFile::ReadAt;

  bool IsRemote() const override { return true; }

  void DropPrefetched() override {
    for (auto it = segments_.begin(); it != segments_.end();) {
      it = it->second.kind == Kind::kPrefetched ? segments_.erase(it) : std::next(it);
    }
    prefetched_bytes_ = 0;
  }

  void Prefetch(const std::vector<ByteRange>& ranges) override {
    // What was fetched ahead becomes this round's (waiting for what is in flight).
    for (const ByteRange& range : ranges) ClaimAheadIn(range.offset, range.offset + range.length);
    // What is not held yet, sorted, merged across small gaps, within the budget.
    std::vector<ByteRange> wanted;
    for (const ByteRange& range : ranges) {
      if (range.offset >= size_ || range.length == 0) continue;
      const uint64_t end = std::min(size_, range.offset + range.length);
      for (uint64_t position = range.offset; position < end;) {
        auto it = SegmentAt(position);
        if (it != segments_.end()) {
          position = it->first + it->second.bytes.size();
          continue;
        }
        const uint64_t stop = std::min(end, NextSegmentStart(position));
        wanted.push_back(ByteRange{position, stop - position});
        position = stop;
      }
    }
    std::sort(wanted.begin(), wanted.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
    // A small round (a point lookup's pages) also merges across wider gaps, as long as they
    // add at most half the bytes wanted: a few hundred KiB more cost less than a request
    // (the round trip is the same, its requests run in parallel).
    uint64_t wanted_bytes = 0;
    for (const ByteRange& range : wanted) wanted_bytes += range.length;
    uint64_t gap_allowance = wanted_bytes <= kSmallRound ? wanted_bytes / 2 : 0;
    std::vector<ByteRange> merged;
    uint64_t total = prefetched_bytes_;
    for (const ByteRange& range : wanted) {
      if (!merged.empty()) {
        ByteRange& previous = merged.back();
        const uint64_t previous_end = previous.offset + previous.length;
        const uint64_t gap = range.offset > previous_end ? range.offset - previous_end : 0;
        const bool wide = gap > kCoalesceGap && gap <= kSmallRoundCoalesceGap && gap <= gap_allowance;
        if ((gap <= kCoalesceGap || wide) && NextSegmentStart(previous_end) >= range.offset + range.length) {
          if (wide) gap_allowance -= gap;
          const uint64_t new_end = std::max(previous_end, range.offset + range.length);
          total += new_end - previous_end;
          previous.length = new_end - previous.offset;
          if (total > kPrefetchBudget) break;
          continue;
        }
      }
      total += range.length;
      if (total > kPrefetchBudget) break;
      merged.push_back(range);
    }
    std::vector<ByteRange> pieces;
    for (const ByteRange& range : merged) {
      for (uint64_t done = 0; done < range.length; done += kMaxPieceSize) {
        pieces.push_back(ByteRange{range.offset + done, std::min(kMaxPieceSize, range.length - done)});
      }
    }
    std::vector<std::vector<uint8_t>> bodies(pieces.size());
    std::vector<std::exception_ptr> errors(pieces.size());
    std::atomic<size_t> next_piece{0};
    RunFetchWorkers(std::min<size_t>(kParallelRequests, pieces.size()), [&](const std::atomic<bool>* stop) {
      for (size_t i; (i = next_piece++) < pieces.size();) {
        try {
          bodies[i] = FetchRange(pieces[i].offset, pieces[i].length, stop);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      }
    });
    for (size_t i = 0; i < pieces.size(); i++) {
      if (errors[i]) Confirming([&] { std::rethrow_exception(errors[i]); });
      prefetched_bytes_ += bodies[i].size();
      AddSegment(pieces[i].offset, std::move(bodies[i]), Kind::kPrefetched);
    }
  }

  bool PrefetchAhead(const std::vector<ByteRange>& ranges, uint64_t tag) override {
    if (read_ahead_limit_ == 0) return false;
    // What is neither held nor on its way, merged across small gaps.
    std::vector<ByteRange> wanted;
    for (const ByteRange& range : ranges) {
      if (range.offset >= size_ || range.length == 0) continue;
      const uint64_t end = std::min(size_, range.offset + range.length);
      for (uint64_t position = range.offset; position < end;) {
        auto it = SegmentAt(position);
        if (it != segments_.end()) {
          position = it->first + it->second.bytes.size();
          continue;
        }
        const uint64_t ahead_end = AheadEndAt(position);
        if (ahead_end > position) {
          position = ahead_end;
          continue;
        }
        const uint64_t stop = std::min({end, NextSegmentStart(position), NextAheadStart(position)});
        wanted.push_back(ByteRange{position, stop - position});
        position = stop;
      }
    }
    std::sort(wanted.begin(), wanted.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
    std::vector<ByteRange> merged;
    for (const ByteRange& range : wanted) {
      if (!merged.empty()) {
        ByteRange& previous = merged.back();
        const uint64_t previous_end = previous.offset + previous.length;
        if (range.offset <= previous_end + kCoalesceGap &&
            std::min(NextSegmentStart(previous_end), NextAheadStart(previous_end)) >= range.offset + range.length) {
          previous.length = std::max(previous_end, range.offset + range.length) - previous.offset;
          continue;
        }
      }
      merged.push_back(range);
    }
    std::unique_lock<std::mutex> lock(ahead_mutex_);
    bool all = true;
    for (const ByteRange& range : merged) {
      for (uint64_t done = 0; done < range.length; done += kMaxPieceSize) {
        const uint64_t length = std::min(kMaxPieceSize, range.length - done);
        if (ahead_bytes_ + length > read_ahead_limit_) {
          all = false;
          break;
        }
        auto piece = std::make_shared<AheadPiece>();
        piece->length = length;
        piece->tag = tag;
        ahead_[range.offset + done] = piece;
        ahead_queue_.emplace_back(range.offset + done, std::move(piece));
        ahead_bytes_ += length;
      }
      if (!all) break;
    }
    ahead_peak_ = std::max(ahead_peak_, ahead_bytes_);
    // A worker per piece waiting, up to kParallelRequests requests in flight.
    while (ahead_workers_.size() < static_cast<size_t>(kParallelRequests) && ahead_idle_ < ahead_queue_.size()) {
      try {
        ahead_workers_.emplace_back([this] { AheadWorker(); });
        ahead_idle_++;
      } catch (const std::system_error&) {
        break;  // no thread to be had: what is queued waits for the workers there are
      }
    }
    if (ahead_workers_.empty()) {  // none at all: nothing is fetched ahead
      DropAheadLocked([](const AheadPiece&) { return true; });
      return false;
    }
    ahead_changed_.notify_all();
    return all;
  }

  void DropAheadBefore(uint64_t tag) override {
    std::lock_guard<std::mutex> lock(ahead_mutex_);
    DropAheadLocked([tag](const AheadPiece& piece) { return piece.tag < tag; });
  }

 private:
  // Read-ahead (PrefetchAhead): pieces fetched by the file's worker threads while the scan
  // decodes, until the scan claims them (Prefetch, ReadAt) or drops them (DropAheadBefore).
  struct AheadPiece {
    enum class State { kQueued, kFetching, kDone, kFailed };
    uint64_t length = 0;
    uint64_t tag = 0;
    State state = State::kQueued;
    bool dropped = false;  // no longer wanted: its bytes are freed when its fetch ends
    std::vector<uint8_t> bytes;
  };

  void AheadWorker() {
    std::unique_lock<std::mutex> lock(ahead_mutex_);
    for (;;) {
      ahead_changed_.wait(lock, [this] { return ahead_stopping_ || !ahead_queue_.empty(); });
      if (ahead_stopping_) return;
      const uint64_t offset = ahead_queue_.front().first;
      std::shared_ptr<AheadPiece> piece = std::move(ahead_queue_.front().second);
      ahead_queue_.pop_front();
      if (piece->dropped) continue;
      piece->state = AheadPiece::State::kFetching;
      ahead_idle_--;
      lock.unlock();
      std::vector<uint8_t> bytes;
      bool ok = true;
      try {
        bytes = FetchRange(offset, piece->length, &ahead_abort_);
      } catch (...) {
        ok = false;  // the scan fetches it itself, and meets the error there if it lasts
      }
      lock.lock();
      ahead_idle_++;
      if (piece->dropped) {
        ahead_bytes_ -= piece->length;
      } else {
        piece->bytes = std::move(bytes);
        piece->state = ok ? AheadPiece::State::kDone : AheadPiece::State::kFailed;
      }
      ahead_changed_.notify_all();
    }
  }

  // Drops the unclaimed pieces `which` accepts (ahead_mutex_ held): queued and fetched
  // ones at once, one in flight when its fetch ends.
  template <typename Which>
  void DropAheadLocked(Which which) {
    for (auto it = ahead_.begin(); it != ahead_.end();) {
      AheadPiece& piece = *it->second;
      if (!which(piece)) {
        ++it;
        continue;
      }
      piece.dropped = true;
      if (piece.state != AheadPiece::State::kFetching) ahead_bytes_ -= piece.length;
      piece.bytes = std::vector<uint8_t>();
      it = ahead_.erase(it);
    }
  }

  // Ends the read-ahead: workers stopped (their requests aborted) and joined.
  void StopAhead() {
    {
      std::lock_guard<std::mutex> lock(ahead_mutex_);
      if (ahead_workers_.empty()) return;
      ahead_stopping_ = true;
      ahead_abort_ = true;
    }
    ahead_changed_.notify_all();
    for (std::thread& worker : ahead_workers_) worker.join();
    ahead_workers_.clear();
  }

  // The end of the unclaimed piece holding `position`, or `position` when none does.
  uint64_t AheadEndAt(uint64_t position) const {
    std::lock_guard<std::mutex> lock(ahead_mutex_);
    auto it = ahead_.upper_bound(position);
    if (it == ahead_.begin()) return position;
    --it;
    const uint64_t end = it->first + it->second->length;
    return position < end ? end : position;
  }

  // The start of the first unclaimed piece at or after `position` (size_ if none).
  uint64_t NextAheadStart(uint64_t position) const {
    std::lock_guard<std::mutex> lock(ahead_mutex_);
    auto it = ahead_.lower_bound(position);
    return it == ahead_.end() ? size_ : it->first;
  }

  // Claims every unclaimed piece overlapping [begin, end).
  void ClaimAheadIn(uint64_t begin, uint64_t end) {
    for (uint64_t position = begin; position < end;) {
      uint64_t start = 0;
      {
        std::lock_guard<std::mutex> lock(ahead_mutex_);
        auto it = ahead_.upper_bound(position);
        if (it != ahead_.begin() && std::prev(it)->first + std::prev(it)->second->length > position) --it;
        if (it == ahead_.end() || it->first >= end) return;
        start = it->first;
        position = it->first + it->second->length;
      }
      ClaimAhead(start);
    }
  }

  // Moves the unclaimed piece holding `position` into the segments, once fetched (waiting
  // for it, and asking the thread's interrupt check while it waits). False when no piece
  // holds it, or its fetch failed (the caller fetches the bytes itself).
  bool ClaimAhead(uint64_t position) {
    std::unique_lock<std::mutex> lock(ahead_mutex_);
    auto it = ahead_.upper_bound(position);
    if (it == ahead_.begin()) return false;
    --it;
    if (position >= it->first + it->second->length) return false;
    const uint64_t offset = it->first;
    std::shared_ptr<AheadPiece> piece = it->second;
    while (piece->state == AheadPiece::State::kQueued || piece->state == AheadPiece::State::kFetching) {
      if (!ahead_changed_.wait_for(lock, std::chrono::milliseconds(50), [&piece] {
            return piece->state == AheadPiece::State::kDone || piece->state == AheadPiece::State::kFailed;
          }) &&
          HttpInterruptRequested()) {
        InterruptAhead(&lock);
        throw HttpInterrupted("interrupted");
      }
    }
    ahead_.erase(offset);
    ahead_bytes_ -= piece->length;
    if (piece->state == AheadPiece::State::kFailed) return false;
    std::vector<uint8_t> bytes = std::move(piece->bytes);
    lock.unlock();
    prefetched_bytes_ += bytes.size();
    AddSegment(offset, std::move(bytes), Kind::kPrefetched);
    return true;
  }

  // An interrupt while waiting: every request in flight aborted, every piece dropped.
  void InterruptAhead(std::unique_lock<std::mutex>* lock) {
    ahead_abort_ = true;
    DropAheadLocked([](const AheadPiece&) { return true; });
    ahead_changed_.wait(*lock, [this] { return ahead_idle_ == ahead_workers_.size(); });
    ahead_abort_ = false;
  }

  enum class Kind { kPinned, kPrefetched, kOnDemand };
  struct Segment {
    std::vector<uint8_t> bytes;
    Kind kind;
    uint64_t sequence;
  };

  HttpResponse Perform(const HttpRequest& request) {
    uint64_t made = 0;
    try {
      HttpResponse response = HttpPerformWithRetry(request, shown_url_, attempts_, &made);
      requests_ += made;
      bytes_ += response.body.size();
      return response;
    } catch (...) {
      requests_ += made;
      throw;
    }
  }

  // One ranged GET of [offset, offset + length), checked to be of the version opened;
  // `abort` (may be null) stops it from another thread.
  // *seen (may be null) receives the version the response names.
  std::vector<uint8_t> FetchRange(uint64_t offset, uint64_t length, const std::atomic<bool>* abort = nullptr,
                                  ObjectVersion* seen = nullptr) {
    HttpRequest request = request_;
    request.abort = abort;
    request.range = std::make_pair(offset, offset + length - 1);
    request.max_body = length;
    HttpResponse response = Perform(request);
    if (response.status == 412) throw ChangedError("it no longer matches the version first read");
    if (response.status != 206 && !(response.status == 200 && offset == 0 && length == size_)) {
      if (response.status == 200) {
        throw ParquetError("cannot read " + shown_url_ + ": the server ignored the range request");
      }
      throw ParquetError(RemoteStatusError(response.status, "read " + shown_url_));
    }
    const ObjectVersion version = ObjectVersion::Of(response);
    if (seen != nullptr) *seen = version;
    if (!version_.etag.empty() && version.etag != version_.etag) {
      throw ChangedError("its ETag changed from " + version_.etag + " to " + version.etag);
    }
    if (version_.etag.empty() && !version_.last_modified.empty() && version.last_modified != version_.last_modified) {
      throw ChangedError("its Last-Modified changed from " + version_.last_modified + " to " + version.last_modified);
    }
    uint64_t first = 0, last = 0, total = 0;
    if (response.status == 206) {
      // Without a Content-Range nothing says which bytes these are.
      if (!ParseContentRange(response.Header("content-range"), &first, &last, &total)) {
        throw ParquetError("cannot read " + shown_url_ + ": the server's partial response (HTTP 206) has no valid "
                           "Content-Range");
      }
      if (total != size_) {
        throw ChangedError("its size changed from " + std::to_string(size_) + " to " + std::to_string(total) + " bytes");
      }
      // Bytes of another range, however long, are not the bytes asked for.
      if (first != offset || last != offset + length - 1) {
        throw ParquetError("cannot read " + shown_url_ + ": asked for bytes " + std::to_string(offset) + "-" +
                           std::to_string(offset + length - 1) + ", the server sent bytes " + std::to_string(first) +
                           "-" + std::to_string(last));
      }
    }
    if (response.body.size() != length) {
      throw ParquetError("cannot read " + shown_url_ + ": asked for " + std::to_string(length) + " bytes at offset " +
                         std::to_string(offset) + ", received " + std::to_string(response.body.size()));
    }
    return std::move(response.body);
  }

  ParquetError ChangedError(const std::string& why) const {
    return ParquetError("remote file " + shown_url_ + " changed while being read (" + why +
                        "): nothing of the new version was used; run the query again");
  }

  std::map<uint64_t, Segment>::iterator SegmentAt(uint64_t position) {
    auto it = segments_.upper_bound(position);
    if (it == segments_.begin()) return segments_.end();
    --it;
    return position < it->first + it->second.bytes.size() ? it : segments_.end();
  }

  // The start of the first segment at or after `position` (size_ if none).
  uint64_t NextSegmentStart(uint64_t position) const {
    auto it = segments_.lower_bound(position);
    return it == segments_.end() ? size_ : it->first;
  }

  void AddSegment(uint64_t offset, std::vector<uint8_t> bytes, Kind kind) {
    if (bytes.empty()) return;
    if (kind == Kind::kOnDemand) {
      on_demand_bytes_ += bytes.size();
      while (on_demand_bytes_ > kOnDemandBudget) {
        auto oldest = segments_.end();
        for (auto it = segments_.begin(); it != segments_.end(); ++it) {
          if (it->second.kind == Kind::kOnDemand && (oldest == segments_.end() || it->second.sequence < oldest->second.sequence)) {
            oldest = it;
          }
        }
        if (oldest == segments_.end()) break;
        on_demand_bytes_ -= oldest->second.bytes.size();
        segments_.erase(oldest);
      }
    }
    segments_[offset] = Segment{std::move(bytes), kind, ++sequence_};
  }

  // Fetches [position, tail_offset_) and makes it part of the pinned tail (and of the cache).
  void ExtendTail(uint64_t position) {
    std::vector<uint8_t> bytes = FetchRange(position, tail_offset_ - position);
    auto tail = segments_.find(tail_offset_);
    if (tail != segments_.end()) {
      bytes.insert(bytes.end(), tail->second.bytes.begin(), tail->second.bytes.end());
    }
    for (auto it = segments_.lower_bound(position); it != segments_.end() && it->first <= tail_offset_;) {
      const uint64_t size = it->second.bytes.size();
      if (it->second.kind == Kind::kOnDemand) on_demand_bytes_ -= size;
      if (it->second.kind == Kind::kPrefetched) prefetched_bytes_ -= std::min(prefetched_bytes_, size);
      it = segments_.erase(it);
    }
    tail_offset_ = position;
    AddSegment(position, std::move(bytes), Kind::kPinned);
    RememberFooter();
  }

  void RememberFooter() {
    // A tail made of a database's row stays out of the process's footer cache (FinishOpen).
    if (version_.empty() || stored_tail_used_) return;
    auto footer = std::make_shared<CachedFooter>();
    footer->version = version_;
    footer->size = size_;
    footer->tail_offset = tail_offset_;
    footer->tail = segments_.at(tail_offset_).bytes;
    Footers().Put(request_identity_, std::move(footer));
  }

  std::string shown_url_;
  int attempts_;
  HttpRequest request_;  // the GET every request starts from
  std::string request_identity_;  // RequestIdentity(request_) before any If-Match: the cache's key
  std::shared_ptr<RemoteStatementChecks> checks_;  // may be null
  bool ambient_credentials_;  // requests are signed with ambient credentials, not the options' own
  // Opening (PrepareOpen .. FinishOpen): the footer known before the request, whether the
  // statement checked it, the footer made of a MetadataStore's row, the request's abort flag.
  std::shared_ptr<const CachedFooter> known_;
  bool checked_ = false;
  std::shared_ptr<const CachedFooter> stored_known_;
  const std::atomic<bool>* open_abort_ = nullptr;
  bool stored_tail_used_ = false;  // the tail is a MetadataStore's row the server confirmed
  ObjectVersion version_;
  uint64_t size_ = 0;
  uint64_t tail_offset_ = 0;  // 0: no pinned tail
  std::map<uint64_t, Segment> segments_;  // never overlapping
  uint64_t on_demand_bytes_ = 0;
  uint64_t prefetched_bytes_ = 0;
  uint64_t on_demand_read_ = kMinOnDemandRead;  // bytes the next on-demand miss reads at least
  uint64_t last_miss_end_ = 0;                   // where the last on-demand read ended
  uint64_t sequence_ = 0;
  std::atomic<uint64_t> requests_{0};
  std::atomic<uint64_t> bytes_{0};
  // Read-ahead: the most bytes it may hold (queued, in flight, fetched and unclaimed), the
  // pieces by offset and in fetch order, the worker threads (idle ones counted), and the
  // most bytes held at once.
  const uint64_t read_ahead_limit_;
  mutable std::mutex ahead_mutex_;
  std::condition_variable ahead_changed_;
  std::map<uint64_t, std::shared_ptr<AheadPiece>> ahead_;
  std::deque<std::pair<uint64_t, std::shared_ptr<AheadPiece>>> ahead_queue_;
  std::vector<std::thread> ahead_workers_;
  size_t ahead_idle_ = 0;
  bool ahead_stopping_ = false;
  std::atomic<bool> ahead_abort_{false};
  uint64_t ahead_bytes_ = 0;
  uint64_t ahead_peak_ = 0;
  // The statement's check in flight (OpenOverlapped): the footer read on with (null when no
  // check is pending), the file making the request and its thread, its answer.
  std::shared_ptr<const CachedFooter> pending_known_;
  std::unique_ptr<RemoteFile> checker_;
  std::thread check_thread_;
  std::atomic<bool> check_abort_{false};
  std::mutex check_mutex_;
  std::condition_variable check_finished_;
  bool check_done_ = false;
  std::exception_ptr check_error_;
  std::shared_ptr<const CachedFooter> seen_;  // what the check found
  bool replaced_ = false;                       // the check found another version
};

}  // namespace

bool IsRemoteUrl(const std::string& path) {
  return StartsWithNoCase(path, "https://") || StartsWithNoCase(path, "http://") || IsS3Url(path);
}

bool IsS3Url(const std::string& path) { return StartsWithNoCase(path, "s3://"); }

std::string PathForDisplay(const std::string& path) { return IsRemoteUrl(path) ? UrlForDisplay(path) : path; }

std::string TrustedCaFile(const RemoteOptions& options) {
  if (!options.http_ca_file.empty()) return options.http_ca_file;
  const char* bundle = std::getenv("CURL_CA_BUNDLE");
  return bundle != nullptr ? bundle : "";
}

HttpRequest PrepareRemoteRequest(const std::string& url, const RemoteOptions& options) {
  if (IsS3Url(url)) {
    if (std::string problem = S3HeaderProblem(options.http_headers); !problem.empty()) throw ParquetError(problem);
    const RemoteOptions resolved = ResolveS3Options(options);
    HttpRequest request = S3Request(resolved, S3HttpUrl(resolved, ParseS3Url(url)), "GET", nullptr, 0);
    for (const SecretString& header : options.http_headers) request.headers.push_back(header);
    return request;
  }
  HttpRequest request;
  request.url = url;
  request.ca_file = TrustedCaFile(options);
  request.headers = options.http_headers;
  if (!options.bearer_token.empty()) {
    SecretString header("Authorization: Bearer ");
    header += options.bearer_token;
    request.headers.push_back(std::move(header));
  }
  return request;
}

std::string RemoteStatusError(long status, const std::string& what) {
  std::string meaning;
  switch (status) {
    case 401: meaning = "unauthorized: credentials are missing or wrong"; break;
    case 403: meaning = "access denied"; break;
    case 404: meaning = "not found"; break;
    case 412: meaning = "the object changed"; break;
    case 416: meaning = "range not satisfiable"; break;
    default: meaning = status >= 500 ? "server error" : "unexpected response"; break;
  }
  return "cannot " + what + ": " + meaning + " (HTTP " + std::to_string(status) + ")";
}

std::unique_ptr<RandomAccessFile> OpenFileOrUrl(const std::string& path, const RemoteOptions* options,
                                                MetadataStore* store) {
  if (!IsRemoteUrl(path)) return OpenLocalFile(path, store);
  static const RemoteOptions kDefaults;
  const RemoteOptions& chosen = options != nullptr ? *options : kDefaults;
  auto file = std::make_unique<RemoteFile>(path, chosen);
  if (chosen.overlap_statement_check) {
    RemoteOptions plain = chosen;
    plain.overlap_statement_check = false;
    file->OpenOverlapped(std::make_unique<RemoteFile>(path, plain), store);
  } else {
    file->Open(store);
  }
  return file;
}

std::vector<ValidatedRemoteFile> ValidateRemoteFiles(const std::vector<std::string>& urls, const RemoteOptions* options,
                                                     MetadataStore* store) {
  static const RemoteOptions kDefaults;
  std::vector<ValidatedRemoteFile> validated(urls.size());
  std::vector<std::unique_ptr<RemoteFile>> files(urls.size());
  for (size_t i = 0; i < urls.size(); i++) {
    try {  // on this thread: preparing a request may read the environment and the credentials file
      files[i] = std::make_unique<RemoteFile>(urls[i], options != nullptr ? *options : kDefaults);
      files[i]->PrepareOpen(store);
    } catch (...) {
      files[i].reset();
      validated[i].error = std::current_exception();
    }
  }
  std::atomic<size_t> next{0};
  RunFetchWorkers(std::min<size_t>(kParallelRequests, urls.size()), [&](const std::atomic<bool>* stop) {
    for (size_t i; (i = next++) < urls.size();) {
      if (!files[i]) continue;
      try {
        files[i]->MakeOpenRequest(stop);
        validated[i].file = std::move(files[i]);
      } catch (...) {
        validated[i].error = std::current_exception();
      }
    }
  });
  return validated;
}

std::unique_ptr<RandomAccessFile> FinishRemoteOpen(ValidatedRemoteFile validated) {
  if (validated.error) std::rethrow_exception(validated.error);
  static_cast<RemoteFile&>(*validated.file).FinishOpen();
  return std::move(validated.file);
}

void ClearRemoteFooterCache() { Footers().Clear(); }

std::string RemoteStatementChecks::Checked(const std::string& identity) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = checked_.find(identity);
  return it == checked_.end() ? "" : it->second;
}

void RemoteStatementChecks::Note(const std::string& identity, const std::string& version) {
  std::lock_guard<std::mutex> lock(mutex_);
  checked_[identity] = version;
}

void RemoteStatementChecks::EndStatement() {
  std::lock_guard<std::mutex> lock(mutex_);
  checked_.clear();
}

RemoteTail FetchRemoteTail(const std::string& url, const RemoteOptions& options) {
  RemoteFile file(url, options);
  file.Open(nullptr);
  return file.Tail();
}

void RunFetchWorkers(size_t threads, const std::function<void(const std::atomic<bool>* stop)>& work) {
  if (threads <= 1 || !kThreadsEnabled) {
    work(nullptr);  // on this thread: its interrupt check applies directly
    return;
  }
  // The fetching threads have no interrupt check of their own: this one asks its check
  // while it waits and raises their abort flag.
  std::atomic<bool> abort{false};
  std::mutex mutex;
  std::condition_variable finished;
  size_t running = 0;
  std::vector<std::thread> started;
  started.reserve(threads);
  for (size_t t = 0; t < threads; t++) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      running++;
    }
    try {
      started.emplace_back([&] {
        work(&abort);
        std::lock_guard<std::mutex> lock(mutex);
        if (--running == 0) finished.notify_one();
      });
    } catch (const std::system_error&) {
      // No thread to be had (a process or memory limit): the ones started share the work.
      std::lock_guard<std::mutex> lock(mutex);
      running--;
      break;
    }
  }
  if (started.empty()) {
    work(nullptr);
    return;
  }
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      if (finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return running == 0; })) break;
    }
    if (!abort.load() && HttpInterruptRequested()) abort = true;
  }
  for (std::thread& thread : started) thread.join();
}

}  // namespace parquet
