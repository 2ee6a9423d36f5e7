// A shared library loaded at run time (dlopen, LoadLibraryW: format/platform/system.h) and
// its functions resolved by name: how the remote-file code reaches libcurl and expat without
// linking them, so the extension loads where they are absent. The library stays loaded for
// the life of the process.
#pragma once

#include <string>
#include <vector>

#include "format/platform/system.h"

namespace parquet {

class RuntimeLibrary {
 public:
  // Loads the first of `names` (platform::SharedLibraryNames) that loads.
  explicit RuntimeLibrary(const std::vector<std::string>& names) {
    for (const std::string& name : names) {
      if (!shown_name_.empty()) shown_name_ += " or ";
      shown_name_ += name;
      std::string error;
      handle_ = platform::LoadSharedLibrary(name, &error);
      if (handle_ != nullptr) {
        shown_name_ = name;
        return;
      }
      if (open_error_.empty()) open_error_ = error;
    }
  }

  // Resolves `name` into *slot (null when absent; complete() then turns false).
  template <class Function>
  void Bind(Function** slot, const char* name) {
    void* symbol = handle_ != nullptr ? platform::FindSharedLibrarySymbol(handle_, name) : nullptr;
    if (symbol == nullptr) complete_ = false;
    *slot = reinterpret_cast<Function*>(symbol);
  }

  // "" when the library loaded and every Bind found its function; else why not, e.g.
  // "libcurl.so.4 cannot be loaded (...), and remote urls need it: install the Debian
  // package libcurl4". `purpose` is plural ("remote urls"); `install` says what to install.
  std::string Problem(const std::string& purpose, const std::string& install) const {
    if (handle_ == nullptr) {
      return shown_name_ + " cannot be loaded (" + open_error_ + "), and " + purpose + " need it: install " + install;
    }
    if (!complete_) return "the " + shown_name_ + " found lacks functions that " + purpose + " need";
    return "";
  }

 private:
  std::string shown_name_;
  void* handle_ = nullptr;
  std::string open_error_;
  bool complete_ = true;
};

}  // namespace parquet
