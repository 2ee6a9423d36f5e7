// Wiping of freed key material (see secret.h).
#include "format/crypto/secret.h"

#include <openssl/crypto.h>

namespace parquet {

void (*g_after_wipe_for_testing)(const void* data, size_t size) = nullptr;

void WipeMemory(void* data, size_t size) {
  if (data == nullptr || size == 0) return;
  OPENSSL_cleanse(data, size);
  if (g_after_wipe_for_testing != nullptr) g_after_wipe_for_testing(data, size);
}

}  // namespace parquet
