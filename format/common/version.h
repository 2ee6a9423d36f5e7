// The version of sqlite-parquet (the VERSION file at the top of the tree), shared by the
// library and the extension: what parquet_version() reports and what written files name
// in FileMetaData.created_by. The build passes VERSION's text to version.cc alone.
#pragma once

#include <string>

namespace parquet {

// "0.1.0": the first line of VERSION.
const char* LibraryVersion();

// "sqlite-parquet version <LibraryVersion()>": FileMetaData.created_by of the files the
// writer makes (in the form ParseCreatedBy reads).
std::string DefaultCreatedBy();

}  // namespace parquet
