// Tests of the JSON parser (format/json_document): the tree it builds, string escapes,
// the depth limit, and the errors for malformed documents.
#include <doctest/doctest.h>

#include <string>

#include "format/values/json_document.h"

using namespace parquet;

TEST_CASE("JsonDocument builds a tree pointing into the text") {
  JsonDocument document;
  std::string error;
  const std::string text = R"( {"a": [1, -2.5e3, true, null], "b\"c": "x\ny", "d": {}} )";
  REQUIRE(document.Parse(text, &error));
  const JsonNode& root = document.root();
  CHECK(root.kind == JsonNode::Kind::kObject);
  const JsonNode& a = document.node(root.first_child);
  CHECK(a.key == "a");
  CHECK(a.kind == JsonNode::Kind::kArray);
  const JsonNode& one = document.node(a.first_child);
  CHECK(one.kind == JsonNode::Kind::kNumber);
  CHECK(one.text == "1");
  const JsonNode& real = document.node(one.next_sibling);
  CHECK(real.text == "-2.5e3");
  CHECK(document.node(real.next_sibling).kind == JsonNode::Kind::kTrue);
  CHECK(document.node(document.node(real.next_sibling).next_sibling).kind == JsonNode::Kind::kNull);
  const JsonNode& b = document.node(a.next_sibling);
  CHECK(b.key_escaped);
  CHECK(b.escaped);
  std::string unescaped;
  UnescapeJsonString(b.key, &unescaped);
  CHECK(unescaped == "b\"c");
  UnescapeJsonString(b.text, &unescaped);
  CHECK(unescaped == "x\ny");
  const JsonNode& d = document.node(b.next_sibling);
  CHECK(d.kind == JsonNode::Kind::kObject);
  CHECK(d.first_child == -1);
  CHECK(d.next_sibling == -1);
}

TEST_CASE("UnescapeJsonString resolves \\u escapes, surrogate pairs and lone surrogates") {
  std::string out;
  UnescapeJsonString(R"(\u00e9\ud83d\ude00\/\\\t)", &out);
  CHECK(out == "\xC3\xA9\xF0\x9F\x98\x80/\\\t");
  UnescapeJsonString(R"(\ud800x)", &out);
  CHECK(out == "\xEF\xBF\xBDx");
}

TEST_CASE("JsonDocument refuses malformed documents and deep nesting, naming the offset") {
  JsonDocument document;
  for (const std::string bad : {"", "[1,]", "{\"a\" 1}", "tru", "01", "1.", "\"abc", "[1] 2", "\"\\x\"", "{'a': 1}"}) {
    std::string error;
    INFO(bad);
    CHECK_FALSE(document.Parse(bad, &error));
    CHECK(error.find("malformed JSON") == 0);
    CHECK(error.find("at offset") != std::string::npos);
  }
  std::string error;
  CHECK(document.Parse(std::string(kMaxJsonDocumentDepth, '[') + std::string(kMaxJsonDocumentDepth, ']'), &error));
  CHECK_FALSE(document.Parse(std::string(kMaxJsonDocumentDepth + 2, '[') + std::string(kMaxJsonDocumentDepth + 2, ']'),
                             &error));
  CHECK(error.find("nested too deeply") != std::string::npos);
}
