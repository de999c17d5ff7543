//===- HttpTransport.h - One HTTPS POST through libcurl ---------*- C++ -*-===//
//
// The LLM client's only network access: a POST of a JSON body, through
// libcurl loaded on first use (CurlLibrary.h). TLS peer and host
// verification are libcurl's defaults and stay on (docs/reliability.md);
// nothing here logs, so the key in the header lines goes nowhere else.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace plate::agent {

/// Response headers, names in lower case, in the order received.
using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

struct HttpTimeouts {
  double connectSeconds = 10;
  double totalSeconds = 120;
};

struct HttpReply {
  /// No HTTP response came back (cannot connect, DNS, TLS, timeout, no
  /// libcurl): why, in libcurl's words, in `transportError`.
  bool transportFailed = false;
  bool timedOut = false;
  /// The failure may pass on another try (a refused or dropped connection,
  /// a timeout).
  bool transient = false;
  std::string transportError;
  long status = 0;
  std::string body;
  HttpHeaders headers;

  std::optional<std::string> header(std::string_view name) const;
};

HttpReply httpPost(const std::string &url, const std::vector<std::string> &headerLines,
                   const std::string &body, const HttpTimeouts &timeouts);

/// Wait the server asks for: retry-after-ms, then retry-after (seconds or an
/// HTTP date); honoured only in (0, 60] seconds.
std::optional<double> retryAfterSeconds(const HttpHeaders &headers);

} // namespace plate::agent
