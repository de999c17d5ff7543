//===- CurlLibrary.h - libcurl, loaded on the first HTTP request -*- C++ -*-===//
//
// Linking libcurl made every `plate` process load and relocate it and its
// ~28 dependencies (TLS, LDAP, Kerberos, SSH, ...) before main, though only
// the agents ever send a request: a third of `plate --version`'s time and
// of every `plate check` an editor runs (bench/README.md, startup).
// The agents reach libcurl through this table instead, filled from
// libcurl.so.4 by dlopen on first use; the API and ABI are libcurl's own
// (the soname pins the ABI), so the calls are exactly those of a linked
// libcurl.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <curl/curl.h>

#include <string>

namespace plate::agent {

struct CurlLibrary {
  CURLcode (*global_init)(long flags);
  CURL *(*easy_init)();
  CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
  CURLcode (*easy_perform)(CURL *curl);
  CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
  void (*easy_cleanup)(CURL *curl);
  const char *(*easy_strerror)(CURLcode code);
  curl_slist *(*slist_append)(curl_slist *list, const char *text);
  void (*slist_free_all)(curl_slist *list);
  time_t (*getdate)(const char *text, const time_t *unused);
};

/// libcurl, loaded and globally initialized once (thread-safe); null when
/// it cannot be loaded, with the loader's reason in `error`.
const CurlLibrary *curlLibrary(std::string &error);

} // namespace plate::agent
