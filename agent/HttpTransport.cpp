//===- HttpTransport.cpp - One HTTPS POST through libcurl -----------------===//
//
// Part of the LLM client; HttpTransport.h says what it does and does not.
//
//===----------------------------------------------------------------------===//
#include "agent/HttpTransport.h"
#include "agent/CurlLibrary.h"

#include <llvm/ADT/StringRef.h>

#include <cstdlib>
#include <ctime>

#ifndef PLATE_VERSION
#define PLATE_VERSION "0.0.0"
#endif

namespace plate::agent {

namespace {

std::optional<std::string> findHeader(const HttpHeaders &headers, std::string_view name) {
  for (const auto &[key, value] : headers)
    if (key == name)
      return value;
  return std::nullopt;
}

size_t writeBody(char *data, size_t size, size_t count, void *user) {
  static_cast<std::string *>(user)->append(data, size * count);
  return size * count;
}

size_t writeHeader(char *data, size_t size, size_t count, void *user) {
  auto *headers = static_cast<HttpHeaders *>(user);
  std::string_view line(data, size * count);
  size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string name = llvm::StringRef(line.substr(0, colon)).lower();
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
      value.remove_suffix(1);
    headers->emplace_back(std::move(name), std::string(value));
  } else if (line.starts_with("HTTP/")) {
    headers->clear(); // a new response (after 100-continue) starts over
  }
  return size * count;
}

} // namespace

std::optional<std::string> HttpReply::header(std::string_view name) const {
  return findHeader(headers, name);
}

HttpReply httpPost(const std::string &url, const std::vector<std::string> &headerLines,
                   const std::string &body, const HttpTimeouts &timeouts) {
  HttpReply reply;
  const CurlLibrary *library = curlLibrary(reply.transportError);
  if (!library) {
    reply.transportFailed = true;
    return reply;
  }
  CURL *curl = library->easy_init();
  if (!curl) {
    reply.transportFailed = true;
    reply.transportError = "libcurl could not start a session";
    return reply;
  }
  char errorBuffer[CURL_ERROR_SIZE] = {0};
  curl_slist *headers = nullptr;
  for (const std::string &line : headerLines)
    headers = library->slist_append(headers, line.c_str());
  library->easy_setopt(curl, CURLOPT_URL, url.c_str());
  library->easy_setopt(curl, CURLOPT_POST, 1L);
  library->easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
  library->easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  library->easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  library->easy_setopt(curl, CURLOPT_WRITEFUNCTION, writeBody);
  library->easy_setopt(curl, CURLOPT_WRITEDATA, &reply.body);
  library->easy_setopt(curl, CURLOPT_HEADERFUNCTION, writeHeader);
  library->easy_setopt(curl, CURLOPT_HEADERDATA, &reply.headers);
  library->easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
  library->easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  library->easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                       static_cast<long>(timeouts.connectSeconds * 1000));
  library->easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(timeouts.totalSeconds * 1000));
  library->easy_setopt(curl, CURLOPT_USERAGENT, "plate/" PLATE_VERSION);
  // Proxies from the environment would route 127.0.0.1 elsewhere.
  library->easy_setopt(curl, CURLOPT_NOPROXY, "127.0.0.1,localhost,::1");
  CURLcode code = library->easy_perform(curl);
  if (code != CURLE_OK) {
    reply.transportFailed = true;
    reply.timedOut = code == CURLE_OPERATION_TIMEDOUT;
    reply.transient = reply.timedOut || code == CURLE_COULDNT_CONNECT ||
                      code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR ||
                      code == CURLE_GOT_NOTHING;
    reply.transportError = errorBuffer[0] ? errorBuffer : library->easy_strerror(code);
  } else {
    library->easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply.status);
  }
  library->slist_free_all(headers);
  library->easy_cleanup(curl);
  return reply;
}

std::optional<double> retryAfterSeconds(const HttpHeaders &headers) {
  auto inRange = [](double seconds) -> std::optional<double> {
    if (seconds > 0 && seconds <= 60)
      return seconds;
    return std::nullopt;
  };
  if (auto ms = findHeader(headers, "retry-after-ms")) {
    char *end = nullptr;
    double value = std::strtod(ms->c_str(), &end);
    if (end != ms->c_str())
      if (auto seconds = inRange(value / 1000))
        return seconds;
  }
  if (auto after = findHeader(headers, "retry-after")) {
    char *end = nullptr;
    double value = std::strtod(after->c_str(), &end);
    if (end != after->c_str() && *end == '\0')
      return inRange(value);
    std::string unavailable;
    const CurlLibrary *curl = curlLibrary(unavailable);
    time_t when = curl ? curl->getdate(after->c_str(), nullptr) : -1;
    if (when != -1)
      return inRange(std::difftime(when, std::time(nullptr)));
  }
  return std::nullopt;
}

} // namespace plate::agent
