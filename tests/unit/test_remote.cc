// Unit tests for the remote-file pieces that need no server: S3 URL parsing and addressing,
// credential defaults, ListObjectsV2 parsing (expat), URL helpers, the remote options
// (ext/remote_options) and the URL rules of ExpandRemotePath. Requests against real servers
// are the remote suite's (tests/remote).
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/stat.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "ext/common/file_list.h"
#include "ext/common/remote_options.h"
#include "ext/table/remote_prefetch.h"
#include "format/common/error.h"
#include "format/io/http_client.h"
#include "format/io/remote_file.h"
#include "format/io/s3.h"
#include "tests/unit/scoped_env.h"

using namespace sqlite_parquet;

namespace {

using test_support::CleanAwsEnvironment;
using test_support::ScopedEnv;

bool ParseRemote(std::vector<std::string_view> arguments, std::shared_ptr<const parquet::RemoteOptions>* out,
                 std::string* error) {
  OptionSet set;
  AddRemoteOptions(&set);
  ParsedOptions parsed;
  return set.Parse(arguments, &parsed, error) && MakeRemoteOptions(parsed, out, error);
}

// In a child process whose user may run only `allowed_threads` more threads (RLIMIT_NPROC,
// counted per user: root switches to an otherwise unused uid first, as root is exempt), runs
// RunFetchWorkers(8 threads) over 1000 pieces; the child's exit status is 0 when every piece
// was done once, 13 when an exception came out, 128 + N when signal N ended it.
int FetchWorkersUnderThreadLimit(rlim_t allowed_threads) {
  const pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    const struct rlimit limit = {allowed_threads + 1, allowed_threads + 1};  // + the child itself
    if (geteuid() == 0 && (setgid(54321) != 0 || setuid(54321) != 0)) _exit(10);
    if (setrlimit(RLIMIT_NPROC, &limit) != 0) _exit(11);
    try {
      std::atomic<int> next{0};
      std::vector<std::atomic<int>> done(1000);
      parquet::RunFetchWorkers(8, [&](const std::atomic<bool>*) {
        for (int i; (i = next++) < 1000;) done[static_cast<size_t>(i)]++;
      });
      for (const std::atomic<int>& count : done) {
        if (count != 1) _exit(12);
      }
      _exit(0);
    } catch (...) {
      _exit(13);  // never back into the test runner from the child
    }
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("remote: fetch threads that cannot start leave their work to the ones that did, or to the caller") {
  CHECK(FetchWorkersUnderThreadLimit(0) == 0);  // no thread at all: the calling thread does it
  CHECK(FetchWorkersUnderThreadLimit(2) == 0);  // 2 of 8 start, the 3rd fails
  CHECK(FetchWorkersUnderThreadLimit(100) == 0);
}

TEST_CASE("remote: URL kinds and display") {
  CHECK(parquet::IsRemoteUrl("https://h/x.parquet"));
  CHECK(parquet::IsRemoteUrl("HTTP://h/x.parquet"));
  CHECK(parquet::IsRemoteUrl("s3://b/k"));
  CHECK_FALSE(parquet::IsRemoteUrl("data/https.parquet"));
  CHECK_FALSE(parquet::IsRemoteUrl("file:///x.parquet"));
  CHECK(parquet::UrlForDisplay("https://h/x.parquet?X-Amz-Signature=abc") == "https://h/x.parquet?...");
  CHECK(parquet::UrlForDisplay("https://h/x.parquet") == "https://h/x.parquet");
  CHECK(parquet::PercentEncode("a b/c=d~", true) == "a%20b/c%3Dd~");
  CHECK(parquet::PercentEncode("a/b", false) == "a%2Fb");
}

TEST_CASE("remote: s3 addressing") {
  CleanAwsEnvironment clean;
  const parquet::S3Location location = parquet::ParseS3Url("s3://bkt/dir/region=eu/part 0.parquet");
  CHECK(location.bucket == "bkt");
  CHECK(location.key == "dir/region=eu/part 0.parquet");
  CHECK_THROWS_WITH_AS(parquet::ParseS3Url("s3:///key"), doctest::Contains("names no bucket"), parquet::ParquetError);

  parquet::RemoteOptions options;
  parquet::RemoteOptions aws = parquet::ResolveS3Options(options);
  CHECK(aws.s3_region == "us-east-1");
  CHECK(parquet::S3HttpUrl(aws, location) == "https://bkt.s3.us-east-1.amazonaws.com/dir/region%3Deu/part%200.parquet");

  options.s3_endpoint = "127.0.0.1:9000";
  parquet::RemoteOptions local = parquet::ResolveS3Options(options);
  CHECK(parquet::S3HttpUrl(local, location) == "https://127.0.0.1:9000/bkt/dir/region%3Deu/part%200.parquet");
  options.s3_endpoint = "http://localhost:9000/";
  options.s3_url_style = parquet::S3UrlStyle::kVirtualHost;
  CHECK(parquet::S3HttpUrl(parquet::ResolveS3Options(options), parquet::S3Location{"bkt", ""}) ==
        "http://bkt.localhost:9000/");
}

TEST_CASE("remote: s3 credentials: options, then environment, then the credentials file") {
  CleanAwsEnvironment clean;
  const std::string path = "remote_test_credentials.ini";
  {
    std::ofstream file(path);
    file << "[default]\naws_access_key_id = DEFAULTKEY\naws_secret_access_key = defaultsecret\n"
         << "# comment\n[other]\n aws_access_key_id=OTHERKEY \naws_secret_access_key=othersecret\n"
         << "aws_session_token = othertoken\n";
  }
  ScopedEnv file("AWS_SHARED_CREDENTIALS_FILE", path.c_str());
  parquet::RemoteOptions options;
  CHECK(parquet::ResolveS3Options(options).s3_access_key_id == "DEFAULTKEY");
  {
    ScopedEnv profile("AWS_PROFILE", "other");
    const parquet::RemoteOptions resolved = parquet::ResolveS3Options(options);
    CHECK(resolved.s3_access_key_id == "OTHERKEY");
    CHECK(resolved.s3_secret_access_key == "othersecret");
    CHECK(resolved.s3_session_token == "othertoken");
  }
  {
    ScopedEnv key("AWS_ACCESS_KEY_ID", "ENVKEY"), secret("AWS_SECRET_ACCESS_KEY", "envsecret"),
        region("AWS_DEFAULT_REGION", "eu-west-3");
    const parquet::RemoteOptions resolved = parquet::ResolveS3Options(options);
    CHECK(resolved.s3_access_key_id == "ENVKEY");
    CHECK(resolved.s3_region == "eu-west-3");
    options.s3_access_key_id = "OPTIONKEY";
    options.s3_secret_access_key = "optionsecret";
    CHECK(parquet::ResolveS3Options(options).s3_access_key_id == "OPTIONKEY");
  }
  std::remove(path.c_str());
}

TEST_CASE("remote: signed s3 requests carry the payload hash and the token") {
  parquet::RemoteOptions options;
  options.s3_access_key_id = "AK";
  options.s3_secret_access_key = "SK";
  options.s3_session_token = "TOKEN";
  options.s3_region = "eu-central-1";
  const parquet::HttpRequest request = parquet::S3Request(options, "https://x/b/k", "GET", nullptr, 0);
  CHECK(request.aws_sigv4 == "aws:amz:eu-central-1:s3");
  CHECK(request.aws_credentials == "AK:SK");
  std::vector<std::string> headers(request.headers.begin(), request.headers.end());
  CHECK(headers == std::vector<std::string>{
                       "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                       "x-amz-security-token: TOKEN"});
  parquet::RemoteOptions anonymous;
  CHECK(parquet::S3Request(anonymous, "https://x/b/k", "GET", nullptr, 0).aws_sigv4.empty());
}

TEST_CASE("remote: ListObjectsV2 responses") {
  std::vector<parquet::S3Object> objects;
  const parquet::S3ListOptions all;
  const std::string page1 =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
      "<Name>b</Name><Prefix>d/</Prefix><IsTruncated>true</IsTruncated>"
      "<Contents><Key>d/a&amp;b.parquet</Key><Size>123</Size></Contents>"
      "<Contents><Key>d/x=1/c.parquet</Key><Size>9876543210</Size></Contents>"
      "<NextContinuationToken>tok/+=</NextContinuationToken></ListBucketResult>";
  CHECK(parquet::ParseListObjectsV2(page1, all, &objects) == "tok/+=");
  REQUIRE(objects.size() == 2);
  CHECK(objects[0].key == "d/a&b.parquet");
  CHECK(objects[0].size == 123);
  CHECK(objects[1].key == "d/x=1/c.parquet");
  CHECK(objects[1].size == 9876543210ull);
  const std::string last = "<ListBucketResult><IsTruncated>false</IsTruncated>"
                           "<Contents><Key>d/z.parquet</Key><Size>1</Size></Contents></ListBucketResult>";
  CHECK(parquet::ParseListObjectsV2(last, all, &objects).empty());
  CHECK(objects.size() == 3);
  CHECK_THROWS_WITH_AS(parquet::ParseListObjectsV2("<ListBucketResult><Contents>", all, &objects),
                       doctest::Contains("cannot parse an s3 listing"), parquet::ParquetError);
  CHECK_THROWS_WITH_AS(parquet::ParseListObjectsV2("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
                                                   all, &objects),
                       doctest::Contains("no continuation token"), parquet::ParquetError);
}

TEST_CASE("remote: ListObjectsV2 with a delimiter gives the common prefixes, and counts what came") {
  std::vector<parquet::S3Object> objects;
  std::vector<std::string> prefixes;
  uint64_t entries = 0;
  parquet::S3ListOptions level;
  level.delimiter = "/";
  level.common_prefixes = &prefixes;
  level.entries = &entries;
  level.keep = [](const std::string& key) { return key != "d/skip.parquet"; };
  const std::string page =
      "<ListBucketResult><IsTruncated>false</IsTruncated><Prefix>d/</Prefix><Delimiter>/</Delimiter>"
      "<Contents><Key>d/a.parquet</Key><Size>1</Size></Contents>"
      "<Contents><Key>d/skip.parquet</Key><Size>1</Size></Contents>"
      "<CommonPrefixes><Prefix>d/year=2023/</Prefix></CommonPrefixes>"
      "<CommonPrefixes><Prefix>d/year=2024/</Prefix></CommonPrefixes></ListBucketResult>";
  CHECK(parquet::ParseListObjectsV2(page, level, &objects).empty());
  REQUIRE(objects.size() == 1);
  CHECK(objects[0].key == "d/a.parquet");
  CHECK(prefixes == std::vector<std::string>{"d/year=2023/", "d/year=2024/"});
  CHECK(entries == 4);  // objects and prefixes returned, kept or not
  // Common prefixes count against max_objects too, and are as long as keys at most.
  level.max_objects = 2;
  objects.clear();
  prefixes.clear();
  CHECK_THROWS_WITH_AS(parquet::ParseListObjectsV2(page, level, &objects), doctest::Contains("more than 2 objects match"),
                       parquet::ParquetError);
  level.max_objects = parquet::kMaxListedObjects;
  prefixes.clear();
  const std::string long_prefix = "<ListBucketResult><CommonPrefixes><Prefix>" + std::string(1100, 'p') +
                                  "/</Prefix></CommonPrefixes></ListBucketResult>";
  CHECK_THROWS_WITH_AS(parquet::ParseListObjectsV2(long_prefix, level, &objects),
                       doctest::Contains("common prefix longer than 1024 bytes"), parquet::ParquetError);
}

// A listing of `count` objects d/0.parquet, d/1.parquet, ...
std::string ListingOf(int count) {
  std::string xml = "<ListBucketResult><IsTruncated>false</IsTruncated>";
  for (int i = 0; i < count; i++) xml += "<Contents><Key>d/" + std::to_string(i) + ".parquet</Key><Size>1</Size></Contents>";
  return xml + "</ListBucketResult>";
}

TEST_CASE("remote: ListObjectsV2 keeps only the keys asked for, and at most max_objects") {
  std::vector<parquet::S3Object> objects;
  parquet::S3ListOptions odd;
  odd.keep = [](const std::string& key) { return (key[2] - '0') % 2 == 1; };
  CHECK(parquet::ParseListObjectsV2(ListingOf(10), odd, &objects).empty());
  REQUIRE(objects.size() == 5);
  CHECK(objects[0].key == "d/1.parquet");
  CHECK(objects[4].key == "d/9.parquet");
  parquet::S3ListOptions capped;
  capped.max_objects = 9;
  objects.clear();
  CHECK_THROWS_WITH_AS(parquet::ParseListObjectsV2(ListingOf(10), capped, &objects),
                       doctest::Contains("more than 9 objects match"), parquet::ParquetError);
  CHECK(objects.size() == 9);
  capped.keep = odd.keep;  // what is not kept does not count
  objects.clear();
  CHECK(parquet::ParseListObjectsV2(ListingOf(10), capped, &objects).empty());
  CHECK(objects.size() == 5);
}

TEST_CASE("remote: ListObjectsV2 refuses a DOCTYPE, long keys and elements, deep nesting") {
  std::vector<parquet::S3Object> objects;
  const parquet::S3ListOptions all;
  // Entities would expand one short key into a long one (and many of them into much more).
  const std::string entities =
      "<?xml version=\"1.0\"?><!DOCTYPE ListBucketResult [<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">"
      "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]><ListBucketResult><Contents><Key>&b;&b;&b;</Key></Contents>"
      "</ListBucketResult>";
  CHECK_THROWS_WITH_AS(parquet::ParseListObjectsV2(entities, all, &objects), doctest::Contains("DOCTYPE"),
                       parquet::ParquetError);
  CHECK(objects.empty());
  CHECK_THROWS_WITH_AS(parquet::XmlElementTexts(entities, "Key"), doctest::Contains("DOCTYPE"), parquet::ParquetError);
  const std::string long_key = "<ListBucketResult><Contents><Key>" + std::string(parquet::kMaxS3KeyBytes + 1, 'k') +
                               "</Key></Contents></ListBucketResult>";
  CHECK_THROWS_WITH_AS(parquet::ParseListObjectsV2(long_key, all, &objects),
                       doctest::Contains("a key longer than 1024 bytes"), parquet::ParquetError);
  const std::string longest_key = "<ListBucketResult><Contents><Key>" + std::string(parquet::kMaxS3KeyBytes, 'k') +
                                  "</Key></Contents></ListBucketResult>";
  CHECK(parquet::ParseListObjectsV2(longest_key, all, &objects).empty());
  CHECK(objects.size() == 1);
  const std::string long_token = "<ListBucketResult><IsTruncated>true</IsTruncated><NextContinuationToken>" +
                                 std::string(parquet::kMaxListingElementBytes + 1, 't') +
                                 "</NextContinuationToken></ListBucketResult>";
  CHECK_THROWS_WITH_AS(parquet::ParseListObjectsV2(long_token, all, &objects),
                       doctest::Contains("an element is longer than 4096 bytes"), parquet::ParquetError);
  std::string deep;
  for (int i = 0; i < 20; i++) deep += "<a>";
  CHECK_THROWS_WITH_AS(parquet::ParseListObjectsV2(deep, all, &objects), doctest::Contains("nest deeper than 16"),
                       parquet::ParquetError);
}

TEST_CASE("remote: an s3 listing asks the thread's interrupt check before each page") {
  parquet::RemoteOptions options;
  options.s3_endpoint = "http://127.0.0.1:1";  // never asked: the check comes first
  options.attempts = 1;
  int asked = 0;
  parquet::HttpInterruptScope interrupted([&] { return ++asked > 0; });
  CHECK_THROWS_AS(parquet::ListS3Objects(options, "bkt", "p/"), parquet::HttpInterrupted);
  CHECK(asked == 1);
}

TEST_CASE("remote: s3 keys with dot segments") {
  CHECK(parquet::S3KeyHasDotSegment("out/../../b/x.parquet"));
  CHECK(parquet::S3KeyHasDotSegment("out/./x.parquet"));
  CHECK(parquet::S3KeyHasDotSegment(".."));
  CHECK(parquet::S3KeyHasDotSegment("a/."));
  CHECK_FALSE(parquet::S3KeyHasDotSegment("out/.hidden/x.parquet"));
  CHECK_FALSE(parquet::S3KeyHasDotSegment("out/x..parquet"));
  CHECK_FALSE(parquet::S3KeyHasDotSegment("out//x.parquet"));
  // S3 requests send the key's path as it is (libcurl would remove the dot segments).
  parquet::RemoteOptions options;
  options.s3_endpoint = "http://h:1";
  options.s3_region = "r";
  const parquet::RemoteOptions resolved = parquet::ResolveS3Options(options);
  const std::string url = parquet::S3HttpUrl(resolved, parquet::S3Location{"bkt", "out/../../other/x.parquet"});
  CHECK(url == "http://h:1/bkt/out/../../other/x.parquet");
  CHECK(parquet::S3Request(resolved, url, "DELETE", nullptr, 0).path_as_is);
}

TEST_CASE("remote: options") {
  std::shared_ptr<const parquet::RemoteOptions> options;
  std::string error;
  REQUIRE(ParseRemote({"http_headers=X-A: 1\nX-B:two", "bearer_token=tok", "http_retries=0", "s3_url_style=vhost",
                       "s3_access_key_id=AK", "s3_secret_access_key=SK", "s3_region=r1", "s3_endpoint=h:1"},
                      &options, &error));
  CHECK(options->http_headers.size() == 2);
  CHECK(options->http_headers[1] == "X-B:two");
  CHECK(options->bearer_token == "tok");
  CHECK(options->attempts == 1);
  CHECK(options->s3_url_style == parquet::S3UrlStyle::kVirtualHost);
  CHECK(options->s3_region == "r1");
  CHECK(options->s3_endpoint == "h:1");
  REQUIRE(ParseRemote({}, &options, &error));
  CHECK(options->attempts == 4);
  CHECK(options->http_headers.empty());

  CHECK_FALSE(ParseRemote({"http_headers=no colon secret123"}, &options, &error));
  CHECK(error.find("http_headers") != std::string::npos);
  CHECK(error.find("secret123") == std::string::npos);
  CHECK_FALSE(ParseRemote({"http_headers=Bad Name: secret123"}, &options, &error));
  CHECK(error.find("secret123") == std::string::npos);
  CHECK_FALSE(ParseRemote({"s3_access_key_id=AK"}, &options, &error));
  CHECK(error.find("go together") != std::string::npos);
  CHECK_FALSE(ParseRemote({"s3_url_style=sideways"}, &options, &error));
  CHECK_FALSE(ParseRemote({"http_retries=11"}, &options, &error));
}

TEST_CASE("remote: the CA bundle: http_ca_file, else CURL_CA_BUNDLE, else libcurl's") {
  std::shared_ptr<const parquet::RemoteOptions> options;
  std::string error;
  ScopedEnv bundle{"CURL_CA_BUNDLE", nullptr};
  REQUIRE(ParseRemote({}, &options, &error));
  CHECK(parquet::TrustedCaFile(*options).empty());
  CHECK(parquet::PrepareRemoteRequest("https://h/f.parquet", *options).ca_file.empty());
  {
    ScopedEnv from_environment{"CURL_CA_BUNDLE", "/env/ca.pem"};
    CHECK(parquet::TrustedCaFile(*options) == "/env/ca.pem");
    REQUIRE(ParseRemote({"http_ca_file=/opt/ca.pem"}, &options, &error));
    CHECK(parquet::TrustedCaFile(*options) == "/opt/ca.pem");
    CHECK(parquet::PrepareRemoteRequest("https://h/f.parquet", *options).ca_file == "/opt/ca.pem");
    CHECK(parquet::PrepareRemoteRequest("s3://bkt/f.parquet", *options).ca_file == "/opt/ca.pem");
  }
}

TEST_CASE("remote: the columns a plan reads pass as idxNum, wide ones through a bounded list") {
  using sqlite_parquet::ColumnsUsedHandles;
  using sqlite_parquet::UsesColumn;
  ColumnsUsedHandles handles;
  // Columns 0-30: the idxNum is colUsed itself, the same for every table.
  for (uint64_t col_used : {uint64_t{0}, uint64_t{5}, uint64_t{INT32_MAX}}) {
    const int handle = handles.HandleOf(col_used);
    CHECK(handle == static_cast<int>(col_used));
    CHECK(handles.ColumnsUsedOf(handle) == col_used);
  }
  CHECK(handles.wide_masks() == 0);
  // Wider: a negative handle, the same one for the same colUsed.
  const uint64_t wide = (uint64_t{1} << 63) | 3;
  const int wide_handle = handles.HandleOf(wide);
  CHECK(wide_handle < 0);
  CHECK(handles.HandleOf(wide) == wide_handle);
  CHECK(handles.ColumnsUsedOf(wide_handle) == wide);
  CHECK(handles.HandleOf(uint64_t{1} << 31) != wide_handle);
  CHECK(handles.wide_masks() == 2);
  // Fill the list: past its bound a new colUsed gets kAllColumnsHandle, meaning every
  // column; the remembered ones keep their handles.
  std::vector<int> issued;
  for (uint64_t i = 0; handles.wide_masks() < ColumnsUsedHandles::kMaxWideMasks; i++) {
    issued.push_back(handles.HandleOf((uint64_t{1} << 40) | i));
  }
  for (size_t i = 0; i < issued.size(); i++) {
    REQUIRE(handles.ColumnsUsedOf(issued[i]) == ((uint64_t{1} << 40) | i));
  }
  const int overflow = handles.HandleOf(uint64_t{1} << 50);
  CHECK(overflow == ColumnsUsedHandles::kAllColumnsHandle);
  CHECK(handles.ColumnsUsedOf(overflow) == ~uint64_t{0});
  CHECK(handles.wide_masks() == ColumnsUsedHandles::kMaxWideMasks);
  CHECK(handles.HandleOf(wide) == wide_handle);
  CHECK(handles.HandleOf(7) == 7);
  // A handle this list never issued means every column, never a read out of bounds.
  CHECK(handles.ColumnsUsedOf(-1 - static_cast<int>(ColumnsUsedHandles::kMaxWideMasks)) == ~uint64_t{0});
  CHECK(ColumnsUsedHandles().ColumnsUsedOf(-1) == ~uint64_t{0});
  CHECK(UsesColumn(5, 0));
  CHECK_FALSE(UsesColumn(5, 1));
  CHECK(UsesColumn(5, 2));
  CHECK(UsesColumn(uint64_t{1} << 63, 63));
  CHECK(UsesColumn(uint64_t{1} << 63, 200));
  CHECK_FALSE(UsesColumn(uint64_t{1} << 62, 200));
}

TEST_CASE("remote: path expansion rules for http") {
  parquet::RemoteOptions options;
  CHECK(ExpandRemotePath("https://h/a.parquet", options) == std::vector<std::string>{"https://h/a.parquet"});
  CHECK_THROWS_WITH_AS(ExpandRemotePath("https://h/*.parquet", options), doctest::Contains("a glob needs a listing"),
                       FileListError);
  CHECK_THROWS_WITH_AS(ExpandRemotePath("http://h/dir/", options), doctest::Contains("a directory needs a listing"),
                       FileListError);
  CHECK(ExpandRemotePath("s3://bkt/k.parquet", options) == std::vector<std::string>{"s3://bkt/k.parquet"});
  CHECK_THROWS_WITH_AS(ExpandRemotePath("s3://bkt", options), doctest::Contains("names a bucket"), FileListError);
  CHECK(PathNamesDataset("s3://bkt/x/"));
  CHECK(PathNamesDataset("s3://bkt/x/*.parquet"));
  CHECK_FALSE(PathNamesDataset("https://h/a.parquet"));
}

TEST_CASE("remote: element texts of s3 responses") {
  const std::string created = "<?xml version=\"1.0\"?><InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key>"
                              "<UploadId>abc/def+=</UploadId></InitiateMultipartUploadResult>";
  CHECK(parquet::XmlElementTexts(created, "UploadId") == std::vector<std::string>{"abc/def+="});
  CHECK(parquet::XmlElementTexts(created, "Missing").empty());
  CHECK(parquet::XmlElementTexts("<Error><Code>NoSuchUpload</Code><Message>m</Message></Error>", "Code") ==
        std::vector<std::string>{"NoSuchUpload"});
  CHECK_THROWS_AS(parquet::XmlElementTexts("<Error><Code>", "Code"), parquet::ParquetError);
}

TEST_CASE("remote: s3 bucket names follow S3's rules before they go into a host name or path") {
  const std::vector<std::string> valid = {"bkt", "my-bucket.data", "a1b", "0-9", std::string(63, 'x')};
  for (const std::string& name : valid) {
    INFO(name);
    CHECK(parquet::IsS3BucketName(name));
  }
  const std::vector<std::string> invalid = {"b", "ab", std::string(64, 'x'), "Bucket", "b_k", "-bkt", "bkt-", "bkt.", "a..b",
                                            "192.168.1.1", "evil.example:80?", "host:port", "a/b", "a b", "a%2fb"};
  for (const std::string& name : invalid) {
    INFO(name);
    CHECK_FALSE(parquet::IsS3BucketName(name));
  }
  // The finding: with vhost style, "s3://host:port?/k" would send the signed request to host.
  CHECK_THROWS_WITH_AS(parquet::ParseS3Url("s3://evil.example:80?/k.parquet"), doctest::Contains("names an invalid bucket"),
                       parquet::ParquetError);
  CHECK_THROWS_WITH_AS(parquet::ParseS3Url("s3://Upper/k.parquet"), doctest::Contains("3 to 63 lowercase"),
                       parquet::ParquetError);
  parquet::RemoteOptions options;
  options.s3_url_style = parquet::S3UrlStyle::kVirtualHost;
  CHECK_THROWS_AS(parquet::S3HttpUrl(options, parquet::S3Location{"evil.example:80?", "k"}), parquet::ParquetError);
}

TEST_CASE("remote: s3_region and s3_endpoint are checked, from the options and from the environment") {
  CleanAwsEnvironment clean;
  for (const char* valid : {"us-east-1", "eu-west-3", "local", "r1"}) CHECK(parquet::S3RegionProblem(valid, "s3_region").empty());
  for (const char* invalid : {"", "us-east-1:iam x", "US-EAST-1", "eu west", "a/b", "r\n"}) {
    INFO(invalid);
    CHECK(parquet::S3RegionProblem(invalid, "s3_region").find("invalid s3_region") == 0);
  }
  for (const char* valid : {"h:1", "127.0.0.1:9000", "http://localhost:9000/", "https://s3.example.com", "HTTPS://h",
                            "http://[::1]:9000", "minio_1:9000"}) {
    INFO(valid);
    CHECK(parquet::S3EndpointProblem(valid, "s3_endpoint").empty());
  }
  for (const char* invalid : {"http://h:1/iam?Action=CreateAccessKey&UserName=victim#", "http://user:pw@h", "ftp://h",
                              "http://h/path", "http://h:99999", "http://h:1x", "http://", "h?x", "h#f", "http://h:",
                              "http://h//", "http://h\r\n:1"}) {
    INFO(invalid);
    CHECK(parquet::S3EndpointProblem(invalid, "s3_endpoint").find("invalid s3_endpoint") == 0);
  }
  std::shared_ptr<const parquet::RemoteOptions> options;
  std::string error;
  CHECK_FALSE(ParseRemote({"s3_region=us-east-1:iam x"}, &options, &error));
  CHECK(error.find("invalid s3_region") != std::string::npos);
  CHECK_FALSE(ParseRemote({"s3_endpoint=http://127.0.0.1:1/?Action=CreateAccessKey#"}, &options, &error));
  CHECK(error.find("invalid s3_endpoint") != std::string::npos);
  // The same checks guard what the environment gives and what reaches the signature.
  parquet::RemoteOptions defaults;
  {
    ScopedEnv region("AWS_REGION", "us-east-1:iam x");
    CHECK_THROWS_WITH_AS(parquet::ResolveS3Options(defaults), doctest::Contains("invalid AWS_REGION"), parquet::ParquetError);
  }
  {
    ScopedEnv endpoint("AWS_ENDPOINT_URL", "http://h/p?q");
    CHECK_THROWS_WITH_AS(parquet::ResolveS3Options(defaults), doctest::Contains("invalid AWS_ENDPOINT_URL"),
                         parquet::ParquetError);
  }
  parquet::RemoteOptions signing;
  signing.s3_access_key_id = "AK";
  signing.s3_secret_access_key = "SK";
  signing.s3_region = "us-east-1:iam x";
  CHECK_THROWS_AS(parquet::S3Request(signing, "https://h/b/k", "GET", nullptr, 0), parquet::ParquetError);
}

TEST_CASE("remote: credentials holding control characters are refused, wherever they come from") {
  CleanAwsEnvironment clean;
  std::shared_ptr<const parquet::RemoteOptions> options;
  std::string error;
  for (const char* name : {"s3_access_key_id", "s3_secret_access_key", "s3_session_token", "bearer_token"}) {
    for (const char* bad : {"tok\r\nGET /smuggled HTTP/1.1", "tok\nX", "tok\x01", "tok\x7f"}) {
      INFO(std::string(name));
      std::vector<std::string> arguments = {std::string(name) + "=" + bad};
      if (std::string(name) != "s3_access_key_id") arguments.push_back("s3_access_key_id=AK");
      if (std::string(name) != "s3_secret_access_key") arguments.push_back("s3_secret_access_key=SK");
      CHECK_FALSE(ParseRemote(std::vector<std::string_view>(arguments.begin(), arguments.end()), &options, &error));
      CHECK(error == "invalid " + std::string(name) + ": it holds a control character");
      CHECK(error.find("smuggled") == std::string::npos);
    }
  }
  parquet::RemoteOptions defaults;
  {
    ScopedEnv key("AWS_ACCESS_KEY_ID", "AK"), secret("AWS_SECRET_ACCESS_KEY", "SK"),
        token("AWS_SESSION_TOKEN", "tok\r\nGET /smuggled HTTP/1.1");
    CHECK_THROWS_WITH_AS(parquet::ResolveS3Options(defaults), "invalid AWS_SESSION_TOKEN: it holds a control character",
                         parquet::ParquetError);
  }
  const std::string path = "remote_test_control_credentials.ini";
  { std::ofstream(path) << "[default]\naws_access_key_id = AK\naws_secret_access_key = S\x01K\n"; }
  {
    ScopedEnv file("AWS_SHARED_CREDENTIALS_FILE", path.c_str());
    CHECK_THROWS_WITH_AS(parquet::ResolveS3Options(defaults), doctest::Contains("invalid aws_secret_access_key of the credentials file"),
                         parquet::ParquetError);
  }
  std::remove(path.c_str());
  // Set in RemoteOptions directly (not through the option parser): refused as well.
  defaults.s3_access_key_id = "AK\r\nX: y";
  defaults.s3_secret_access_key = "SK";
  CHECK_THROWS_WITH_AS(parquet::ResolveS3Options(defaults), doctest::Contains("control character"), parquet::ParquetError);
}

TEST_CASE("remote: a credentials file that is a FIFO is an error at once, not a hang") {
  CleanAwsEnvironment clean;
  const std::string path = "remote_test_credentials.fifo";
  std::remove(path.c_str());
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  ScopedEnv file("AWS_SHARED_CREDENTIALS_FILE", path.c_str());
  CHECK_THROWS_WITH_AS(parquet::ResolveS3Options(parquet::RemoteOptions()), doctest::Contains("not a regular file"),
                       parquet::ParquetError);
  std::remove(path.c_str());
}

TEST_CASE("remote: http_headers of an s3 request set no header SigV4 signs or that routes the request") {
  CleanAwsEnvironment clean;
  std::shared_ptr<const parquet::RemoteOptions> options;
  std::string error;
  for (const char* header : {"Host: s3.us-east-1.amazonaws.com", "Authorization: x", "X-Amz-Date: 20200101T000000Z",
                             "x-amz-security-token: t", "X-AMZ-Content-Sha256: UNSIGNED-PAYLOAD", "Content-Type: a/b",
                             "Range: bytes=0-", "Transfer-Encoding: chunked"}) {
    INFO(header);
    REQUIRE(ParseRemote({std::string("http_headers=") + header, "s3_access_key_id=AK", "s3_secret_access_key=SK"}, &options,
                        &error));
    CHECK_THROWS_WITH_AS(parquet::PrepareRemoteRequest("s3://bkt/k.parquet", *options),
                         doctest::Contains("http_headers may not set"), parquet::ParquetError);
    // A plain https URL keeps them (nothing is signed there).
    CHECK_NOTHROW(parquet::PrepareRemoteRequest("https://h/k.parquet", *options));
  }
  REQUIRE(ParseRemote({"http_headers=X-Api-Key: k", "s3_access_key_id=AK", "s3_secret_access_key=SK"}, &options, &error));
  CHECK(parquet::PrepareRemoteRequest("s3://bkt/k.parquet", *options).headers.back() == "X-Api-Key: k");
}

TEST_CASE("remote: ambient credentials are refused while the credential rule's gate is closed") {
  CleanAwsEnvironment clean;
  auto allowed = std::make_shared<std::atomic<bool>>(false);
  parquet::RemoteOptions gated;
  gated.s3_endpoint = "http://127.0.0.1:1";
  gated.ambient_credentials_allowed = allowed;
  gated.ambient_credentials_refusal = "refused by the rule";
  // Without ambient credentials there is nothing to refuse: the request goes unsigned.
  CHECK(parquet::ResolveS3Options(gated).s3_access_key_id.empty());
  {
    ScopedEnv key("AWS_ACCESS_KEY_ID", "AKIAFAKE"), secret("AWS_SECRET_ACCESS_KEY", "fakesecret");
    CHECK_THROWS_WITH_AS(parquet::ResolveS3Options(gated), "refused by the rule", parquet::ParquetError);
    CHECK_THROWS_WITH_AS(parquet::PrepareRemoteRequest("s3://bkt/k.parquet", gated), "refused by the rule",
                         parquet::ParquetError);
    allowed->store(true);
    CHECK(parquet::ResolveS3Options(gated).s3_access_key_id == "AKIAFAKE");
    allowed->store(false);
    parquet::RemoteOptions own = gated;
    own.s3_access_key_id = "OWNKEY";
    own.s3_secret_access_key = "ownsecret";
    const parquet::RemoteOptions resolved = parquet::ResolveS3Options(own);
    CHECK(resolved.s3_access_key_id == "OWNKEY");
    CHECK(resolved.s3_session_token.empty());
  }
  const std::string path = "remote_test_gate_credentials.ini";
  { std::ofstream(path) << "[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = filesecret\n"; }
  {
    ScopedEnv file("AWS_SHARED_CREDENTIALS_FILE", path.c_str());
    CHECK_THROWS_WITH_AS(parquet::ResolveS3Options(gated), "refused by the rule", parquet::ParquetError);
  }
  std::remove(path.c_str());
}

TEST_CASE("remote: only RFC 9110 entity-tags and HTTP dates are taken from a server") {
  for (const char* valid : {"\"abc\"", "W/\"abc\"", "\"\"", "\"v1-123\"", "\"\x80\xff\"", "\"a!#~\""}) {
    INFO(valid);
    CHECK(parquet::IsEntityTag(valid));
  }
  for (const char* invalid : {"abc", "\"abc", "\"a\"b\"", "\"a\rb\"", "\"a b\"", "\"a\tb\"", "W/abc", "w/\"a\"", "",
                              "\"a\"\r\nX-Injected: 1", "\"a\x7f\""}) {
    INFO(invalid);
    CHECK_FALSE(parquet::IsEntityTag(invalid));
  }
  for (const char* valid : {"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
                            "Wed, 21 Oct 2015 07:28:00 GMT"}) {
    INFO(valid);
    CHECK(parquet::IsHttpDate(valid));
  }
  for (const char* invalid : {"", "Sun, 06 Nov 1994 08:49:37 GMT\r", "Sun, 06 Nov 1994 08:49:37 UTC",
                              "Sun, 6 Nov 1994 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
                              "yesterday", "Sunday, 06-Nov-94 08:49:37 GMT\r\nX: y", "Funday, 06-Nov-94 08:49:37 GMT"}) {
    INFO(invalid);
    CHECK_FALSE(parquet::IsHttpDate(invalid));
  }
}

TEST_CASE("remote: a statement's checks hold until the statement ends") {
  parquet::RemoteStatementChecks checks;
  CHECK(checks.Checked("identity-a").empty());
  checks.Note("identity-a", "\"v1\"\n\n100");
  checks.Note("identity-b", "\"w\"\n\n7");
  CHECK(checks.Checked("identity-a") == "\"v1\"\n\n100");
  checks.Note("identity-a", "\"v2\"\n\n120");  // checked again: the latest version
  CHECK(checks.Checked("identity-a") == "\"v2\"\n\n120");
  checks.EndStatement();
  CHECK(checks.Checked("identity-a").empty());
  CHECK(checks.Checked("identity-b").empty());
}
