//===- ResponseCache.cpp - Model replies kept for an offline replay -------===//
//
// Part of the LLM client; ResponseCache.h says what is kept.
//
//===----------------------------------------------------------------------===//
#include "agent/ResponseCache.h"
#include "ir/JsonParse.h"

#include <fstream>

namespace plate::agent {

using nlohmann::json;

ResponseCache::ResponseCache(const std::string &directory, const std::string &requestHash)
    : requestHash_(requestHash) {
  if (!directory.empty())
    file_ = std::filesystem::path(directory) / (requestHash + ".json");
}

std::optional<CachedReply>
ResponseCache::find(llvm::function_ref<bool(const std::string &body)> readable) const {
  if (file_.empty())
    return std::nullopt;
  std::ifstream in(file_);
  if (!in)
    return std::nullopt;
  json entry = parseJsonOrDiscarded<json>(in);
  if (entry.is_discarded() || !entry.contains("response_body") ||
      !entry["response_body"].is_string())
    return std::nullopt;
  CachedReply reply;
  reply.body = entry["response_body"].get<std::string>();
  if (!readable(reply.body))
    return std::nullopt;
  reply.status = entry.value("status", 200L);
  // The latency the model once took, so a replayed sweep reports the run
  // it replays (CallRecord::cached tells the two apart).
  reply.latencySeconds = entry.value("latency_s", 0.0);
  return reply;
}

void ResponseCache::store(const json &request, const CachedReply &reply) const {
  if (file_.empty())
    return;
  std::error_code ignored;
  std::filesystem::create_directories(file_.parent_path(), ignored);
  std::ofstream out(file_);
  out << json{{"request_hash", requestHash_},
              {"request", request},
              {"status", reply.status},
              {"latency_s", reply.latencySeconds},
              {"response_body", reply.body}}
             .dump(1)
      << "\n";
}

} // namespace plate::agent
