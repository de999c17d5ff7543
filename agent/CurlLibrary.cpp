//===- CurlLibrary.cpp - libcurl, loaded on the first HTTP request --------===//
#include "agent/CurlLibrary.h"

#include <dlfcn.h>

#include <mutex>

namespace plate::agent {

namespace {

struct Loaded {
  CurlLibrary library{};
  bool ok = false;
  std::string error;
};

template <typename Function> bool resolve(void *handle, const char *name, Function &slot,
                                          std::string &error) {
  void *symbol = dlsym(handle, name);
  if (!symbol) {
    error = std::string("libcurl.so.4 has no `") + name + "`";
    return false;
  }
  slot = reinterpret_cast<Function>(symbol);
  return true;
}

Loaded load() {
  Loaded loaded;
  void *handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    loaded.error = std::string("cannot load libcurl.so.4 (Debian package libcurl4): ") +
                   (reason ? reason : "unknown reason");
    return loaded;
  }
  CurlLibrary &curl = loaded.library;
  std::string &error = loaded.error;
  loaded.ok = resolve(handle, "curl_global_init", curl.global_init, error) &&
              resolve(handle, "curl_easy_init", curl.easy_init, error) &&
              resolve(handle, "curl_easy_setopt", curl.easy_setopt, error) &&
              resolve(handle, "curl_easy_perform", curl.easy_perform, error) &&
              resolve(handle, "curl_easy_getinfo", curl.easy_getinfo, error) &&
              resolve(handle, "curl_easy_cleanup", curl.easy_cleanup, error) &&
              resolve(handle, "curl_easy_strerror", curl.easy_strerror, error) &&
              resolve(handle, "curl_slist_append", curl.slist_append, error) &&
              resolve(handle, "curl_slist_free_all", curl.slist_free_all, error) &&
              resolve(handle, "curl_getdate", curl.getdate, error);
  // The handle stays open for the life of the process, as a linked
  // library would.
  if (loaded.ok && curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    loaded.ok = false;
    error = "libcurl's global initialization failed";
  }
  return loaded;
}

} // namespace

const CurlLibrary *curlLibrary(std::string &error) {
  static const Loaded loaded = load();
  if (!loaded.ok) {
    error = loaded.error;
    return nullptr;
  }
  return &loaded.library;
}

} // namespace plate::agent
