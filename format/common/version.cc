// The library's version (see version.h), from PQ_VERSION, which CMakeLists.txt reads from
// the VERSION file.
#include "format/common/version.h"

#ifndef PQ_VERSION
#error "PQ_VERSION must be defined by the build (CMakeLists.txt reads it from VERSION)"
#endif

namespace parquet {

const char* LibraryVersion() { return PQ_VERSION; }

std::string DefaultCreatedBy() { return std::string("sqlite-parquet version ") + PQ_VERSION; }

}  // namespace parquet
