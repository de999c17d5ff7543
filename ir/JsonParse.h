//===- JsonParse.h - JSON parsing that never throws -------------------------===//
//
// nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false) still
// throws out_of_range 406 for a number that overflows a double (`1e999`);
// found by the stream fuzz target (docs/reliability.md). Every reader of
// untrusted JSON (streams, plans, truth maps, journals, LLM replies) goes
// through this instead: the result is discarded on any error.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <nlohmann/json.hpp>

#include <utility>

namespace plate {

template <typename JsonT, typename Input> JsonT parseJsonOrDiscarded(Input &&input) {
  try {
    return JsonT::parse(std::forward<Input>(input), nullptr, /*allow_exceptions=*/false);
  } catch (const nlohmann::json::exception &) {
    return JsonT(JsonT::value_t::discarded);
  }
}

} // namespace plate
