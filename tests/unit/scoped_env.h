// Sets (or with nullptr unsets) an environment variable for one scope of a unit or runtime
// test, restoring what was there before; CleanAwsEnvironment clears every AWS variable.
#pragma once

#include <stdlib.h>

#include <string>

namespace test_support {

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = getenv(name)) old_ = old, had_ = true;
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (had_) {
      setenv(name_.c_str(), old_.c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_, old_;
  bool had_ = false;
};

// No AWS variable of the caller's environment leaks into a test (and no ~/.aws/credentials).
struct CleanAwsEnvironment {
  ScopedEnv key{"AWS_ACCESS_KEY_ID", nullptr}, secret{"AWS_SECRET_ACCESS_KEY", nullptr},
      token{"AWS_SESSION_TOKEN", nullptr}, region{"AWS_REGION", nullptr}, default_region{"AWS_DEFAULT_REGION", nullptr},
      endpoint{"AWS_ENDPOINT_URL", nullptr}, endpoint_s3{"AWS_ENDPOINT_URL_S3", nullptr}, profile{"AWS_PROFILE", nullptr},
      file{"AWS_SHARED_CREDENTIALS_FILE", "/nonexistent"};
};

}  // namespace test_support
