//===- ResponseCache.h - Model replies kept for an offline replay ---------===//
//
// With `--cache DIR` every reply a model sent is kept in DIR under the
// hash of its request (one JSON file each: the request, the status, the
// latency and the body as received), and a later identical request replays
// it without the network: a sweep can be re-run and audited offline.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace plate::agent {

/// A reply as the model once sent it.
struct CachedReply {
  long status = 200;
  double latencySeconds = 0;
  std::string body;
};

class ResponseCache {
public:
  /// `directory` empty: no cache (find finds nothing, store keeps nothing).
  ResponseCache(const std::string &directory, const std::string &requestHash);

  /// The reply kept for this request, when `readable` accepts its body (a
  /// body the wire format cannot read is asked for again).
  std::optional<CachedReply>
  find(llvm::function_ref<bool(const std::string &body)> readable) const;
  void store(const nlohmann::json &request, const CachedReply &reply) const;

private:
  std::filesystem::path file_;
  std::string requestHash_;
};

} // namespace plate::agent
