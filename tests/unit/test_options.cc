// Unit tests for ext/options: splitting and unquoting of key=value arguments and the
// checks OptionSet applies (unknown, duplicate and invalid options, value kinds,
// prefixed per-column keys, the positional file name).
#include "ext/common/options.h"

#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <string_view>
#include <vector>

using namespace sqlite_parquet;

namespace {

OptionArgument Split(std::string_view argument) {
  OptionArgument result;
  std::string error;
  REQUIRE_MESSAGE(SplitOptionArgument(argument, &result, &error), error);
  return result;
}

std::string SplitError(std::string_view argument) {
  OptionArgument result;
  std::string error;
  CHECK_FALSE(SplitOptionArgument(argument, &result, &error));
  return error;
}

OptionSet TableOptions() {
  OptionSet options;
  options.AddString("filename")
      .AddBoolean("binary_as_string")
      .AddInteger("batch_size", 1, 1000000)
      .AddInteger("offset", std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max())
      .AddInteger("limit", 0, std::numeric_limits<int64_t>::max())
      .AddEnum("timestamp_as", {"text", "unixepoch", "unixepoch_ms", "julianday"})
      .AddEnum("compression", {"none", "snappy", "zstd"})
      .AddEnum("compression.*", {"none", "snappy", "zstd"})
      .AddInteger("compression_level.*", 1, 22)
      .AddString("comment")
      .SetPositional("filename");
  return options;
}

// Parses the arguments, requiring success.
ParsedOptions Parse(const OptionSet& options, std::vector<std::string_view> arguments) {
  ParsedOptions parsed;
  std::string error;
  REQUIRE_MESSAGE(options.Parse(arguments, &parsed, &error), error);
  return parsed;
}

// Parses the arguments, requiring failure; returns the message.
std::string ParseError(const OptionSet& options, std::vector<std::string_view> arguments) {
  ParsedOptions parsed;
  std::string error;
  CHECK_FALSE(options.Parse(arguments, &parsed, &error));
  return error;
}

}  // namespace

TEST_CASE("SplitOptionArgument: quoting forms of values") {
  CHECK(Split("key=value").value == "value");
  CHECK(Split("key='it''s'").value == "it's");
  CHECK(Split("key=\"it\"\"s\"").value == "it\"s");
  CHECK(Split("key='a b.parquet'").value == "a b.parquet");
  CHECK(Split("key='a=b, c'").value == "a=b, c");
  CHECK(Split("key=\"'\"").value == "'");
  CHECK(Split("key=a b").value == "a b");       // bare values keep inner spaces
  CHECK(Split("key=a=b").value == "a=b");       // only the first '=' separates
  CHECK(Split("key=[x]").value == "[x]");       // brackets quote keys, not values
  CHECK(Split("key=it's").value == "it's");     // a quote inside a bare value is literal
}

TEST_CASE("SplitOptionArgument: quoting forms of keys") {
  CHECK(Split("key=1").key == "key");
  CHECK(Split("KEY=1").key == "key");
  CHECK(Split("'Key'=1").key == "key");
  CHECK(Split("\"col\"='x'").key == "col");
  CHECK(Split("[Binary_As_String]=1").key == "binary_as_string");
  CHECK(Split("`a``b`=1").key == "a`b");
  CHECK(Split("\"a\"\"b\"=1").key == "a\"b");
  CHECK(Split("[a=b]=1").key == "a=b");  // '=' inside a quoted key does not split
  CHECK(Split("[a=b]=1").value == "1");
}

TEST_CASE("SplitOptionArgument: whitespace and empty values") {
  const OptionArgument spaced = Split("  filename   =   'a b.parquet'  ");
  CHECK(spaced.key == "filename");
  CHECK(spaced.value == "a b.parquet");
  CHECK_FALSE(spaced.positional);
  CHECK(Split("\tkey\n=\r1 ").value == "1");
  CHECK(Split("key=").value.empty());
  CHECK(Split("key =  ").value.empty());
  CHECK(Split("key=''").value.empty());
  CHECK(Split("key=\"\"").value.empty());
  CHECK(Split("key=' padded '").value == " padded ");
}

TEST_CASE("SplitOptionArgument: positional arguments") {
  const OptionArgument quoted = Split("'data/x.parquet'");
  CHECK(quoted.positional);
  CHECK(quoted.value == "data/x.parquet");
  CHECK(Split("  data/x.parquet ").value == "data/x.parquet");
  CHECK(Split("data/x.parquet").positional);
  CHECK(Split("'a=b.parquet'").positional);
  CHECK(Split("'a=b.parquet'").value == "a=b.parquet");
  CHECK(Split("\"it\"\"s.parquet\"").value == "it\"s.parquet");
}

TEST_CASE("SplitOptionArgument: prefixed keys") {
  const OptionArgument bare = Split("Compression.Price = zstd");
  CHECK(bare.has_suffix);
  CHECK(bare.prefix == "compression");
  CHECK(bare.suffix == "Price");
  CHECK(bare.key == "compression.Price");
  const OptionArgument quoted_suffix = Split("compression.\"Unit Price\"=zstd");
  CHECK(quoted_suffix.suffix == "Unit Price");
  const OptionArgument dotted_suffix = Split("compression.[a.b]=zstd");
  CHECK(dotted_suffix.suffix == "a.b");
  const OptionArgument quoted_whole = Split("\"COMPRESSION.Unit Price\"=zstd");
  CHECK(quoted_whole.prefix == "compression");
  CHECK(quoted_whole.suffix == "Unit Price");
  const OptionArgument nested = Split("compression.a.b=zstd");
  CHECK(nested.suffix == "a.b");
  CHECK_FALSE(Split("compression=zstd").has_suffix);
}

TEST_CASE("SplitOptionArgument: syntax errors") {
  // The argument's text is never quoted: an argument that does not parse may hold a key.
  CHECK(SplitError("key='abc") == "unterminated quote in parquet option");
  CHECK(SplitError("key=\"abc\"\"") == "unterminated quote in parquet option");
  CHECK(SplitError("'data/x.parquet") == "unterminated quote in parquet option");
  CHECK(SplitError("[key=1") == "unterminated quote in parquet option");
  CHECK(SplitError("key='a'b") == "unexpected text after quoted value in parquet option");
  CHECK(SplitError("=1") == "missing option name in parquet option");
  CHECK(SplitError("  = 1") == "missing option name in parquet option");
  CHECK(SplitError("''=1") == "malformed option name in parquet option");
  CHECK(SplitError("compression.=zstd") == "malformed option name in parquet option");
  CHECK(SplitError(".x=1") == "malformed option name in parquet option");
  CHECK(SplitError("\"a\"b=1") == "malformed option name in parquet option");
  CHECK(SplitError("\"compression.\"=1") == "malformed option name in parquet option");
}

TEST_CASE("OptionSet: positional path and ordered results") {
  const OptionSet options = TableOptions();
  const ParsedOptions parsed =
      Parse(options, {"'data/x.parquet'", "binary_as_string=1", "batch_size = 500"});
  REQUIRE(parsed.values().size() == 3);
  CHECK(parsed.values()[0].key == "filename");
  CHECK(parsed.values()[0].positional);
  CHECK(parsed.values()[1].key == "binary_as_string");
  CHECK(parsed.values()[2].key == "batch_size");
  CHECK(parsed.GetString("filename", "") == "data/x.parquet");
  CHECK(parsed.GetBool("binary_as_string", false));
  CHECK(parsed.GetInteger("batch_size", 0) == 500);
  CHECK(parsed.GetInteger("limit", -7) == -7);  // absent: fallback
  CHECK_FALSE(parsed.Has("limit"));

  const ParsedOptions named = Parse(options, {"FILENAME = 'a b.parquet'"});
  CHECK(named.GetString("filename", "") == "a b.parquet");
  CHECK_FALSE(named.Find("filename")->positional);

  CHECK(Parse(options, {}).values().empty());
}

TEST_CASE("OptionSet: positional argument errors") {
  const OptionSet options = TableOptions();
  CHECK(ParseError(options, {"'a.parquet'", "filename='b.parquet'"}) ==
        "duplicate parquet option: filename");
  CHECK(ParseError(options, {"binary_as_string=1", "'a.parquet'"}) == "parquet option 2 is not key=value");
  OptionSet without_positional;
  without_positional.AddString("format");
  CHECK(ParseError(without_positional, {"x.parquet"}) == "parquet option 1 is not key=value");
  // An argument that starts with a declared option's name gets a hint naming only that.
  CHECK(ParseError(options, {"'a.parquet'", "binary_as_string 1"}) ==
        "parquet option 2 is not key=value (it starts with binary_as_string: write binary_as_string=value)");
  // Where the error is known to lie in a declared option, it is named.
  CHECK(ParseError(options, {"'a.parquet'", "binary_as_string='1"}) ==
        "unterminated quote in parquet option 2 (binary_as_string)");
  CHECK(ParseError(options, {"'a.parquet'", "nope='1"}) == "unterminated quote in parquet option 2");
}

// Issue 20, finding 5: every way of mistyping a key option gives an error naming the
// option and what is wrong, never the key.
TEST_CASE("OptionSet: key options never appear in errors") {
  const std::string key = "SECRETKEY0123456";
  OptionSet options;
  options.AddString("filename").SetPositional("filename").AddSecret("footer_key").AddSecret("column_keys");
  const std::vector<std::vector<std::string>> mistakes = {
      {"'x.parquet'", "'footer_key=" + key + "'"},   // the whole option quoted
      {"'footer_key=" + key + "'"},                  // ... in the file name's place
      {"\"footer_key = " + key + "\""},
      {"'x.parquet'", "footer_key " + key},          // no '='
      {"'x.parquet'", "footer_key:" + key},
      {"'x.parquet'", "footer_key='" + key},         // unterminated quote
      {"'x.parquet'", "footer_key='" + key + "'x"},  // text after the quoted value
      {"'x.parquet'", "footer_key=" + key, "footer_key=" + key},  // repeated
      {"'x.parquet'", key},                          // the key alone
      {"'x.parquet'", "'" + key},
  };
  for (const std::vector<std::string>& arguments : mistakes) {
    std::vector<std::string_view> views(arguments.begin(), arguments.end());
    ParsedOptions parsed;
    std::string error;
    CAPTURE(arguments.back());
    CHECK_FALSE(options.Parse(views, &parsed, &error));
    CHECK(!error.empty());
    CHECK(error.find("SECRETKEY") == std::string::npos);
  }
  // The first two name the option they recognise.
  CHECK(ParseError(options, {"'x.parquet'", "'footer_key=" + key + "'"}) ==
        "parquet option 2 is not key=value (it starts with footer_key: write footer_key=value, quoting only the value)");
  CHECK(ParseError(options, {"'footer_key=" + key + "'"}) ==
        "parquet option 1 is not key=value (it starts with footer_key: write footer_key=value, quoting only the value)");
}

TEST_CASE("OptionSet: unknown and duplicate keys") {
  const OptionSet options = TableOptions();
  CHECK(ParseError(options, {"foo=1"}) == "unknown parquet option: foo");
  CHECK(ParseError(options, {"FOO=1"}) == "unknown parquet option: foo");
  CHECK(ParseError(options, {"binary_as_string.x=1"}) == "unknown parquet option: binary_as_string.x");
  CHECK(ParseError(options, {"binary_as_string=1", "BINARY_AS_STRING=0"}) ==
        "duplicate parquet option: binary_as_string");
  CHECK(ParseError(options, {"[batch_size]=1", "'batch_size'=2"}) ==
        "duplicate parquet option: batch_size");
  CHECK(ParseError(options, {"compression.Price=zstd", "compression.price=none"}) ==
        "duplicate parquet option: compression.price");
  // The error comes from the first bad argument.
  CHECK(ParseError(options, {"foo=1", "bar=2"}) == "unknown parquet option: foo");
}

TEST_CASE("OptionSet: boolean values") {
  const OptionSet options = TableOptions();
  for (std::string_view text : {"1", "true", "TRUE", "on", "On", "yes", "'yes'"}) {
    std::string argument = "binary_as_string=" + std::string(text);
    CHECK_MESSAGE(Parse(options, {argument}).GetBool("binary_as_string", false), argument);
  }
  for (std::string_view text : {"0", "false", "off", "NO", "\"no\""}) {
    std::string argument = "binary_as_string=" + std::string(text);
    CHECK_FALSE_MESSAGE(Parse(options, {argument}).GetBool("binary_as_string", true), argument);
  }
  CHECK(ParseError(options, {"binary_as_string=maybe"}) ==
        "invalid value for binary_as_string: 'maybe' (expected a boolean)");
  CHECK(ParseError(options, {"binary_as_string="}) ==
        "invalid value for binary_as_string: '' (expected a boolean)");
  CHECK(ParseError(options, {"binary_as_string=2"}) ==
        "invalid value for binary_as_string: '2' (expected a boolean)");
}

TEST_CASE("OptionSet: integer values and ranges") {
  const OptionSet options = TableOptions();
  CHECK(Parse(options, {"batch_size=1"}).GetInteger("batch_size", 0) == 1);
  CHECK(Parse(options, {"batch_size=+1000000"}).GetInteger("batch_size", 0) == 1000000);
  CHECK(Parse(options, {"batch_size='42'"}).GetInteger("batch_size", 0) == 42);
  CHECK(Parse(options, {"offset=-9223372036854775808"}).GetInteger("offset", 0) ==
        std::numeric_limits<int64_t>::min());
  CHECK(ParseError(options, {"batch_size=0"}) ==
        "invalid value for batch_size: '0' (expected an integer from 1 to 1000000)");
  CHECK(ParseError(options, {"batch_size=1000001"}) ==
        "invalid value for batch_size: '1000001' (expected an integer from 1 to 1000000)");
  CHECK(ParseError(options, {"batch_size=1.5"}) ==
        "invalid value for batch_size: '1.5' (expected an integer from 1 to 1000000)");
  CHECK(ParseError(options, {"batch_size=ten"}) ==
        "invalid value for batch_size: 'ten' (expected an integer from 1 to 1000000)");
  CHECK(ParseError(options, {"batch_size="}) ==
        "invalid value for batch_size: '' (expected an integer from 1 to 1000000)");
  CHECK(ParseError(options, {"batch_size=+-1"}) ==
        "invalid value for batch_size: '+-1' (expected an integer from 1 to 1000000)");
  CHECK(ParseError(options, {"limit=-1"}) ==
        "invalid value for limit: '-1' (expected an integer of at least 0)");
  CHECK(ParseError(options, {"offset=9223372036854775808"}) ==
        "invalid value for offset: '9223372036854775808' (expected an integer)");
}

TEST_CASE("OptionSet: enum and string values") {
  const OptionSet options = TableOptions();
  const ParsedOptions parsed = Parse(options, {"timestamp_as=UnixEpoch_MS", "comment=''"});
  CHECK(parsed.GetEnumIndex("timestamp_as", -1) == 2);
  CHECK(parsed.Find("timestamp_as")->text == "UnixEpoch_MS");
  CHECK(parsed.Find("timestamp_as")->kind == OptionKind::ENUM);
  CHECK(parsed.Has("comment"));
  CHECK(parsed.GetString("comment", "absent").empty());
  CHECK(ParseError(options, {"timestamp_as=iso"}) ==
        "invalid value for timestamp_as: 'iso' (expected one of: text, unixepoch, unixepoch_ms, "
        "julianday)");
  CHECK(Parse(options, {"comment = it's fine "}).GetString("comment", "") == "it's fine");
}

TEST_CASE("OptionSet: prefixed per-column keys") {
  const OptionSet options = TableOptions();
  const ParsedOptions parsed =
      Parse(options, {"compression=snappy", "compression.Price=zstd", "compression.\"Unit Name\"=none",
                      "compression_level.Price=19"});
  CHECK(parsed.GetEnumIndex("compression", -1) == 1);
  CHECK(parsed.GetEnumIndex("compression.Price", -1) == 2);
  CHECK(parsed.GetEnumIndex("compression.Unit Name", -1) == 0);
  const std::vector<const OptionValue*> per_column = parsed.WithPrefix("compression");
  REQUIRE(per_column.size() == 2);
  CHECK(per_column[0]->suffix == "Price");
  CHECK(per_column[1]->suffix == "Unit Name");
  CHECK(per_column[1]->prefix == "compression");
  REQUIRE(parsed.WithPrefix("compression_level").size() == 1);
  CHECK(parsed.WithPrefix("compression_level")[0]->integer == 19);
  CHECK(ParseError(options, {"compression.price=lz4"}) ==
        "invalid value for compression.price: 'lz4' (expected one of: none, snappy, zstd)");
  CHECK(ParseError(options, {"compression_level.x=23"}) ==
        "invalid value for compression_level.x: '23' (expected an integer from 1 to 22)");
  CHECK(ParseError(options, {"compression_level=3"}) == "unknown parquet option: compression_level");
}

TEST_CASE("OptionSet: argv-style input as xCreate provides it") {
  const OptionSet options = TableOptions();
  const char* const argv[] = {"'data/x.parquet'", "binary_as_string = on", "\"comment\"='x'"};
  ParsedOptions parsed;
  std::string error;
  REQUIRE(options.Parse(3, argv, &parsed, &error));
  CHECK(parsed.GetString("filename", "") == "data/x.parquet");
  CHECK(parsed.GetBool("binary_as_string", false));
  CHECK(parsed.GetString("comment", "") == "x");
  CHECK(options.Parse(0, nullptr, &parsed, &error));
  CHECK(parsed.values().empty());
}
