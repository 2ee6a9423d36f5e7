// Key material is wiped when freed (issue 20, finding 10): SecretString and SecretBytes
// (format/crypto/secret.h) overwrite every buffer before it goes back to the allocator, and the
// places that hold keys (parsed options, decryption properties) use them. The test hook
// g_after_wipe_for_testing sees each region right after the wipe and before the free, so
// the tests check the bytes that were there are zero at that moment.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <cstdint>
#include <string>
#include <vector>

#include "ext/common/options.h"
#include "format/crypto/encryption.h"
#include "format/crypto/secret.h"
#include "format/io/http_client.h"
#include "format/io/s3.h"
#include "tests/unit/scoped_env.h"

namespace parquet {
namespace {

// Every region wiped while a WipeLog is alive, with whether it held only zeros then.
// Addresses are kept as integers: the regions are freed by the time they are looked up.
struct WipedRegion {
  uintptr_t address;
  size_t size;
  bool zeroed;
};
std::vector<WipedRegion>* g_log = nullptr;

void RecordWipe(const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  g_log->push_back({reinterpret_cast<uintptr_t>(data), size, std::all_of(bytes, bytes + size, [](uint8_t b) { return b == 0; })});
}

class WipeLog {
 public:
  WipeLog() {
    regions_.reserve(1024);  // no allocation from inside the hook
    g_log = &regions_;
    g_after_wipe_for_testing = RecordWipe;
  }
  ~WipeLog() {
    g_after_wipe_for_testing = nullptr;
    g_log = nullptr;
  }
  // The addresses of the regions of exactly `size` bytes that were wiped and then held zeros.
  std::vector<uintptr_t> ZeroedRegionsOfSize(size_t size, bool or_larger = false) const {
    std::vector<uintptr_t> addresses;
    for (const WipedRegion& region : regions_) {
      if (region.zeroed && (region.size == size || (or_larger && region.size > size))) addresses.push_back(region.address);
    }
    return addresses;
  }
  // Whether [data, data + size) lies in a region that was wiped and then held zeros.
  bool Wiped(uintptr_t address, size_t size) const {
    for (const WipedRegion& region : regions_) {
      if (region.zeroed && address >= region.address && address + size <= region.address + region.size) return true;
    }
    return false;
  }

 private:
  std::vector<WipedRegion> regions_;
};

TEST_CASE("secret: a SecretString's heap buffer is wiped before it is freed") {
  WipeLog log;
  uintptr_t where = 0;
  {
    SecretString key("0123456789abcdef0123456789abcdef");  // 32 bytes: on the heap
    where = reinterpret_cast<uintptr_t>(key.data());
  }
  CHECK(log.Wiped(where, 32));
}

TEST_CASE("secret: a short SecretString's inline buffer is wiped") {
  WipeLog log;
  alignas(SecretString) unsigned char storage[sizeof(SecretString)];
  auto* key = new (storage) SecretString("short key");
  const uintptr_t where = reinterpret_cast<uintptr_t>(key->data());
  key->~SecretString();
  CHECK(log.Wiped(where, 9));
}

TEST_CASE("secret: a buffer given up by growth is wiped") {
  WipeLog log;
  SecretString key("0123456789abcdef0123456789abcdef");
  const uintptr_t old_buffer = reinterpret_cast<uintptr_t>(key.data());
  key.append(std::string(200, 'x'));  // reallocates
  CHECK(reinterpret_cast<uintptr_t>(key.data()) != old_buffer);
  CHECK(log.Wiped(old_buffer, 32));
}

TEST_CASE("secret: SecretBytes wipes its buffer") {
  WipeLog log;
  uintptr_t where = 0;
  {
    SecretBytes bytes(64, 0xAB);
    where = reinterpret_cast<uintptr_t>(bytes.data());
  }
  CHECK(log.Wiped(where, 64));
}

TEST_CASE("secret: decryption properties wipe the footer and column keys") {
  WipeLog log;
  uintptr_t footer = 0;
  uintptr_t column = 0;
  {
    FileDecryptionProperties properties;
    std::string error;
    REQUIRE(ParseKeyText("hex:000102030405060708090a0b0c0d0e0f1011121314151617", &properties.footer_key, &error));
    REQUIRE(ParseKeyText("0123456789abcdef0123456789abcdef", &properties.column_keys["ssn"], &error));
    footer = reinterpret_cast<uintptr_t>(properties.footer_key.data());
    column = reinterpret_cast<uintptr_t>(properties.column_keys.at("ssn").data());
  }
  CHECK(log.Wiped(footer, 24));
  CHECK(log.Wiped(column, 32));
}

TEST_CASE("secret: parsed option values are wiped") {
  WipeLog log;
  uintptr_t value = 0;
  {
    sqlite_parquet::OptionSet options;
    options.AddSecret("footer_key");
    sqlite_parquet::ParsedOptions parsed;
    std::string error;
    const std::string argument = "footer_key='0123456789abcdef0123456789abcdef'";
    const std::string_view views[] = {argument};
    REQUIRE(options.Parse(views, &parsed, &error));
    value = reinterpret_cast<uintptr_t>(parsed.Find("footer_key")->text.data());
  }
  CHECK(log.Wiped(value, 32));
}

TEST_CASE("secret: remote credentials: libcurl's copies of the headers and the credentials file are wiped") {
  test_support::CleanAwsEnvironment clean;
  {
    WipeLog log;
    HttpRequest request;
    request.url = "http://127.0.0.1:1/x.parquet";  // refused at once: the headers were handed to libcurl
    request.headers.push_back(SecretString("X-Secret: wipe-me-0123456789abcdef"));
    request.timeout_seconds = 5;
    const uintptr_t ours = reinterpret_cast<uintptr_t>(request.headers[0].data());
    const size_t size = request.headers[0].size();
    CHECK_THROWS_AS(HttpPerform(request, "x.parquet"), ParquetError);
    // A wiped region of the header's length that is not our own SecretString's buffer.
    bool copy_wiped = false;
    for (uintptr_t address : log.ZeroedRegionsOfSize(size)) copy_wiped = copy_wiped || address != ours;
    CHECK(copy_wiped);
  }
  const std::string path = "secret_test_credentials.ini";
  const std::string text = "[default]\naws_access_key_id = AKIAFILEKEY\naws_secret_access_key = file-secret-wiped\n";
  { std::ofstream(path) << text; }
  test_support::ScopedEnv file("AWS_SHARED_CREDENTIALS_FILE", path.c_str());
  {
    WipeLog log;
    CHECK(ResolveS3Options(RemoteOptions()).s3_access_key_id == "AKIAFILEKEY");
    // The file's bytes, read into a SecretString: its whole capacity is wiped, which the
    // standard library may round up from the size (libc++ does).
    CHECK_FALSE(log.ZeroedRegionsOfSize(text.size(), /*or_larger=*/true).empty());
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace parquet
