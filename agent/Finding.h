//===- Finding.h - One thing a layer of validation found ------------------===//
//
// The common shape of what the step alignment, the compiler (as errors
// turned into findings) and the Validation Agent report about a candidate
// script; the translation loop turns findings into the Parser's feedback.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace plate::agent {

struct Finding {
  /// completeness, parameter, order (the Validator's types); the alignment
  /// also says missing, invented, domain.
  std::string type;
  std::string location; ///< "text line 7", "line 12", "step 5"
  std::string message;
  std::string guidance;
  std::string source; ///< alignment, validator, compiler, parser
  /// The alignment's confidence: "certain" findings end an attempt and go
  /// back to the Parser; "uncertain" ones are evidence for the Validator.
  /// Empty for the other sources.
  std::string confidence;
};
nlohmann::json toJson(const Finding &finding);

} // namespace plate::agent
