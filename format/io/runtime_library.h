// A shared library loaded at run time (dlopen) and its functions resolved by name: how the
// remote-file code reaches libcurl and expat without linking them, so the extension loads
// where they are absent. The library stays loaded for the life of the process.
#pragma once

#include <dlfcn.h>

#include <string>

namespace parquet {

class RuntimeLibrary {
 public:
  explicit RuntimeLibrary(const char* soname) : soname_(soname), handle_(dlopen(soname, RTLD_NOW | RTLD_LOCAL)) {
    if (handle_ == nullptr) open_error_ = dlerror();
  }

  // Resolves `name` into *slot (null when absent; complete() then turns false).
  template <class Function>
  void Bind(Function** slot, const char* name) {
    void* symbol = handle_ != nullptr ? dlsym(handle_, name) : nullptr;
    if (symbol == nullptr) complete_ = false;
    *slot = reinterpret_cast<Function*>(symbol);
  }

  // "" when the library loaded and every Bind found its function; else why not, e.g.
  // "libcurl.so.4 cannot be loaded (...), and remote urls need it: install the Debian
  // package libcurl4". `purpose` is plural ("remote urls").
  std::string Problem(const std::string& purpose, const std::string& package) const {
    if (handle_ == nullptr) {
      return soname_ + " cannot be loaded (" + open_error_ + "), and " + purpose +
             " need it: install the Debian package " + package;
    }
    if (!complete_) return "the " + soname_ + " found lacks functions that " + purpose + " need";
    return "";
  }

 private:
  std::string soname_;
  void* handle_;
  std::string open_error_;
  bool complete_ = true;
};

}  // namespace parquet
