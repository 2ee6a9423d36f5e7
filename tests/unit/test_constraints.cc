// Tests of the SQLite-free part of constraint pushdown (ext/constraints): the idxStr plan
// encoding, RowMatches against SQLite's comparison rules, MayMatch on value bounds, the
// integer ranges of rowid filters and the LIKE/GLOB prefixes. (Building filters from
// xFilter arguments needs SQLite and is covered by the sql and differential suites.)
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ext/table/constraints.h"

using namespace sqlite_parquet;

namespace {

ColumnFilter Filter(ConstraintOp op, std::vector<SqlValue> values, int column = 0) {
  ColumnFilter filter;
  filter.column = column;
  filter.op = op;
  filter.values = std::move(values);
  return filter;
}

}  // namespace

TEST_CASE("EncodePlan quotes names that are not plain identifiers and DecodePlan reads them back") {
  const std::vector<std::string> names = {"id", "two words", "say \"hi\"", "rowid", "LIMIT", "x1"};
  const std::vector<PlanTerm> terms = {
      {0, ConstraintOp::kEq},     {1, ConstraintOp::kLt},       {2, ConstraintOp::kIsNotNull},
      {3, ConstraintOp::kIn},     {4, ConstraintOp::kLike},     {kRowidColumn, ConstraintOp::kGe},
      {5, ConstraintOp::kIsNot},  {5, ConstraintOp::kIsNull},   {0, ConstraintOp::kGlob},
      {0, ConstraintOp::kNe},     {0, ConstraintOp::kLe},       {0, ConstraintOp::kGt},
      {0, ConstraintOp::kIs},     {kRowidColumn, ConstraintOp::kLimit}, {kRowidColumn, ConstraintOp::kOffset},
  };
  const std::string plan = EncodePlan(terms, names);
  CHECK(plan ==
        "id=? AND \"two words\"<? AND \"say \"\"hi\"\"\" IS NOT NULL AND \"rowid\" IN (?) AND \"LIMIT\" LIKE ? AND "
        "rowid>=? AND x1 IS NOT ? AND x1 IS NULL AND id GLOB ? AND id!=? AND id<=? AND id>? AND id IS ? AND "
        "LIMIT ? AND OFFSET ?");
  std::vector<PlanTerm> decoded;
  REQUIRE(DecodePlan(plan.c_str(), names, &decoded));
  REQUIRE(decoded.size() == terms.size());
  for (size_t i = 0; i < terms.size(); i++) {
    INFO(i);
    CHECK(decoded[i].op == terms[i].op);
    if (terms[i].op != ConstraintOp::kLimit && terms[i].op != ConstraintOp::kOffset) {
      CHECK(decoded[i].column == terms[i].column);
    }
  }
  CHECK(DecodePlan(nullptr, names, &decoded));
  CHECK(decoded.empty());
  CHECK(DecodePlan("", names, &decoded));
}

TEST_CASE("DecodePlan refuses what EncodePlan would not write") {
  const std::vector<std::string> names = {"a"};
  std::vector<PlanTerm> terms;
  for (const char* bad : {"b=?", "a", "a=? AND", "a=? OR a<?", "a==?", "\"a", "a=?  AND a<?", "a =?"}) {
    INFO(bad);
    CHECK_FALSE(DecodePlan(bad, names, &terms));
  }
  CHECK(TermHasArgument(ConstraintOp::kEq));
  CHECK_FALSE(TermHasArgument(ConstraintOp::kIsNull));
  CHECK_FALSE(TermHasArgument(ConstraintOp::kIsNotNull));
}

TEST_CASE("RowMatches follows SQLite's order of storage classes and its NULL rules") {
  const ColumnFilter lt = Filter(ConstraintOp::kLt, {SqlValue::Integer(10)});
  CHECK(RowMatches(lt, SqlValue::Integer(9)));
  CHECK(RowMatches(lt, SqlValue::Real(9.5)));
  CHECK_FALSE(RowMatches(lt, SqlValue::Real(10.0)));
  CHECK_FALSE(RowMatches(lt, SqlValue::Text("1")));  // text sorts after numbers
  CHECK_FALSE(RowMatches(lt, SqlValue::Null()));     // NULL compares to nothing
  const ColumnFilter eq = Filter(ConstraintOp::kEq, {SqlValue::Integer(3)});
  CHECK(RowMatches(eq, SqlValue::Real(3.0)));
  CHECK_FALSE(RowMatches(eq, SqlValue::Text("3")));
  const ColumnFilter ne = Filter(ConstraintOp::kNe, {SqlValue::Integer(3)});
  CHECK_FALSE(RowMatches(ne, SqlValue::Null()));
  CHECK(RowMatches(ne, SqlValue::Integer(4)));
  const ColumnFilter text_ge = Filter(ConstraintOp::kGe, {SqlValue::Text("b")});
  CHECK(RowMatches(text_ge, SqlValue::Text("b")));
  CHECK_FALSE(RowMatches(text_ge, SqlValue::Text("B")));  // BINARY collation
  CHECK(RowMatches(text_ge, SqlValue::Blob("a")));       // blobs sort after text

  const ColumnFilter is_null_value = Filter(ConstraintOp::kIs, {SqlValue::Null()});
  CHECK(RowMatches(is_null_value, SqlValue::Null()));
  CHECK_FALSE(RowMatches(is_null_value, SqlValue::Integer(0)));
  const ColumnFilter is_not_one = Filter(ConstraintOp::kIsNot, {SqlValue::Integer(1)});
  CHECK(RowMatches(is_not_one, SqlValue::Null()));
  CHECK_FALSE(RowMatches(is_not_one, SqlValue::Real(1.0)));
  CHECK(RowMatches(Filter(ConstraintOp::kIsNull, {}), SqlValue::Null()));
  CHECK_FALSE(RowMatches(Filter(ConstraintOp::kIsNotNull, {}), SqlValue::Null()));

  ColumnFilter inactive = Filter(ConstraintOp::kEq, {SqlValue::Integer(1)});
  inactive.active = false;
  CHECK(RowMatches(inactive, SqlValue::Integer(2)));
}

TEST_CASE("RowMatches searches a sorted IN list, and LIKE ranges only reject rows outside them") {
  // MakeColumnFilter sorts IN lists, NULLs first.
  const ColumnFilter in = Filter(ConstraintOp::kIn, {SqlValue::Null(), SqlValue::Integer(2), SqlValue::Real(4.5),
                                                     SqlValue::Text("x")});
  CHECK(RowMatches(in, SqlValue::Integer(2)));
  CHECK(RowMatches(in, SqlValue::Real(4.5)));
  CHECK(RowMatches(in, SqlValue::Text("x")));
  CHECK_FALSE(RowMatches(in, SqlValue::Integer(3)));
  CHECK_FALSE(RowMatches(in, SqlValue::Null()));  // NULL IN (NULL, ...) is not true
  // LIKE 'ab%': ranges [ab, ac) and the case variants; the pattern itself SQLite checks.
  const ColumnFilter like = Filter(ConstraintOp::kLike, {SqlValue::Text("ab"), SqlValue::Text("ac"),
                                                         SqlValue::Text("AB"), SqlValue::Text("AC")});
  CHECK(RowMatches(like, SqlValue::Text("abz")));
  CHECK(RowMatches(like, SqlValue::Text("AB")));
  CHECK_FALSE(RowMatches(like, SqlValue::Text("ac")));
  CHECK_FALSE(RowMatches(like, SqlValue::Text("b")));
}

TEST_CASE("MayMatch rules out bounds no row within can satisfy") {
  ValueBounds b;
  b.min = SqlValue::Integer(10);
  b.max = SqlValue::Integer(20);
  b.may_have_null = false;
  CHECK(MayMatch(Filter(ConstraintOp::kEq, {SqlValue::Integer(15)}), b));
  CHECK_FALSE(MayMatch(Filter(ConstraintOp::kEq, {SqlValue::Integer(21)}), b));
  CHECK_FALSE(MayMatch(Filter(ConstraintOp::kEq, {SqlValue::Null()}), b));
  CHECK_FALSE(MayMatch(Filter(ConstraintOp::kLt, {SqlValue::Integer(10)}), b));
  CHECK(MayMatch(Filter(ConstraintOp::kLe, {SqlValue::Integer(10)}), b));
  CHECK_FALSE(MayMatch(Filter(ConstraintOp::kGt, {SqlValue::Real(20.0)}), b));
  CHECK(MayMatch(Filter(ConstraintOp::kGe, {SqlValue::Real(20.0)}), b));
  CHECK(MayMatch(Filter(ConstraintOp::kLt, {SqlValue::Text("a")}), b));  // every number sorts before text
  CHECK_FALSE(MayMatch(Filter(ConstraintOp::kGt, {SqlValue::Text("a")}), b));
  CHECK_FALSE(MayMatch(Filter(ConstraintOp::kIsNull, {}), b));
  CHECK(MayMatch(Filter(ConstraintOp::kIsNotNull, {}), b));
  CHECK_FALSE(MayMatch(Filter(ConstraintOp::kIn, {SqlValue::Null(), SqlValue::Integer(5), SqlValue::Integer(25)}), b));
  CHECK(MayMatch(Filter(ConstraintOp::kIn, {SqlValue::Integer(5), SqlValue::Integer(20)}), b));

  ValueBounds constant;  // every value is 7, some NULL
  constant.min = SqlValue::Integer(7);
  constant.max = SqlValue::Integer(7);
  CHECK_FALSE(MayMatch(Filter(ConstraintOp::kNe, {SqlValue::Integer(7)}), constant));
  CHECK(MayMatch(Filter(ConstraintOp::kIsNot, {SqlValue::Integer(7)}), constant));  // the NULLs
  constant.may_have_null = false;
  CHECK_FALSE(MayMatch(Filter(ConstraintOp::kIsNot, {SqlValue::Integer(7)}), constant));

  ValueBounds only_nulls;
  only_nulls.may_have_non_null = false;
  CHECK_FALSE(MayMatch(Filter(ConstraintOp::kGt, {SqlValue::Integer(0)}), only_nulls));
  CHECK(MayMatch(Filter(ConstraintOp::kIs, {SqlValue::Null()}), only_nulls));

  ValueBounds unknown;  // no statistics: nothing can be ruled out but by NULL tests
  CHECK(MayMatch(Filter(ConstraintOp::kEq, {SqlValue::Integer(1)}), unknown));

  ValueBounds text;
  text.min = SqlValue::Text("m");
  text.max = SqlValue::Text("p");
  CHECK_FALSE(MayMatch(Filter(ConstraintOp::kLike, {SqlValue::Text("a"), SqlValue::Text("b")}), text));
  CHECK(MayMatch(Filter(ConstraintOp::kLike, {SqlValue::Text("a"), SqlValue::Text("b"), SqlValue::Text("n"),
                                              SqlValue::Text("o")}),
                 text));
  CHECK(MayMatch(Filter(ConstraintOp::kGlob, {SqlValue::Text("o"), SqlValue::Null()}), text));  // no upper end
}

TEST_CASE("NarrowIntegerRange keeps a superset of the rowids a filter accepts") {
  auto narrowed = [](const ColumnFilter& filter) {
    int64_t lo = INT64_MIN, hi = INT64_MAX;
    NarrowIntegerRange(filter, &lo, &hi);
    return std::pair<int64_t, int64_t>(lo, hi);
  };
  CHECK(narrowed(Filter(ConstraintOp::kEq, {SqlValue::Integer(5)}, kRowidColumn)) == std::pair<int64_t, int64_t>(5, 6));
  const auto real = narrowed(Filter(ConstraintOp::kEq, {SqlValue::Real(5.5)}, kRowidColumn));
  CHECK(real.first <= 5);
  CHECK(real.second >= 6);
  const auto in = narrowed(Filter(ConstraintOp::kIn, {SqlValue::Null(), SqlValue::Integer(3), SqlValue::Integer(9)}));
  CHECK(in.first <= 3);
  CHECK(in.second >= 10);
  const auto nulls = narrowed(Filter(ConstraintOp::kIn, {SqlValue::Null()}));
  CHECK(nulls.first >= nulls.second);  // nothing
  const auto lt = narrowed(Filter(ConstraintOp::kLt, {SqlValue::Integer(100)}));
  CHECK(lt.second >= 100);  // superset: widened by one at most
  CHECK(lt.second <= 101);
  const auto ge = narrowed(Filter(ConstraintOp::kGe, {SqlValue::Integer(-4)}));
  CHECK(ge.first == -4);
  const auto text = narrowed(Filter(ConstraintOp::kEq, {SqlValue::Text("5")}));  // no integer equals text
  CHECK(text.first <= text.second);
}

TEST_CASE("PatternPrefixes: GLOB's literal prefix, LIKE's case variants up to three letters") {
  CHECK(PatternPrefixes("abc*d", true) == std::vector<std::string>{"abc"});
  CHECK(PatternPrefixes("*abc", true).empty());
  CHECK(PatternPrefixes("a[bc]", true) == std::vector<std::string>{"a"});
  CHECK(PatternPrefixes("1a%", false) == std::vector<std::string>{"1a", "1A"});
  CHECK(PatternPrefixes("abcd%", false).size() == 8);
  for (const std::string& prefix : PatternPrefixes("abcd%", false)) CHECK(prefix.size() == 3);
  CHECK(PatternPrefixes("_x", false).empty());
  CHECK(PatternPrefixes("x\xC3\xA9%", false) == std::vector<std::string>{"x", "X"});  // stops at non-ASCII
}

TEST_CASE("BBOX_INTERSECTS: plan round trip, exact row test on the WKB envelope, bounds only rule out all-NULL") {
  const std::vector<std::string> names = {"geom", "id"};
  const std::vector<PlanTerm> terms = {{0, ConstraintOp::kBboxIntersects}, {1, ConstraintOp::kEq}};
  const std::string plan = EncodePlan(terms, names);
  CHECK(plan == "geom BBOX_INTERSECTS ? AND id=?");
  std::vector<PlanTerm> decoded;
  REQUIRE(DecodePlan(plan.c_str(), names, &decoded));
  REQUIRE(decoded.size() == 2);
  CHECK(decoded[0].op == ConstraintOp::kBboxIntersects);
  CHECK(decoded[0].column == 0);

  // Box [0, 0] - [2, 2]; POINT(1 2) on its edge, POINT(3 4) outside, the empty polygon.
  const ColumnFilter box = Filter(ConstraintOp::kBboxIntersects,
                                  {SqlValue::Real(0), SqlValue::Real(0), SqlValue::Real(2), SqlValue::Real(2)});
  const std::string inside("\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\xf0\x3f\x00\x00\x00\x00\x00\x00\x00\x40", 21);
  const std::string outside("\x00\x00\x00\x00\x01\x40\x08\x00\x00\x00\x00\x00\x00\x40\x10\x00\x00\x00\x00\x00\x00", 21);
  const std::string empty("\x01\x03\x00\x00\x00\x00\x00\x00\x00", 9);
  CHECK(RowMatches(box, SqlValue::Blob(inside)));
  CHECK(!RowMatches(box, SqlValue::Blob(outside)));
  CHECK(!RowMatches(box, SqlValue::Blob(empty)));
  CHECK(!RowMatches(box, SqlValue::Null()));
  // Not WKB: kept, for SQLite's own call of the function to report the error.
  CHECK(RowMatches(box, SqlValue::Blob(std::string("\x01\x01", 2))));
  CHECK(RowMatches(box, SqlValue::Text("POINT(1 2)")));

  ValueBounds bounds;
  CHECK(MayMatch(box, bounds));
  bounds.may_have_non_null = false;
  CHECK(!MayMatch(box, bounds));
}
