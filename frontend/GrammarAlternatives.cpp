//===- GrammarAlternatives.cpp - The labelled alternatives of the grammar -===//
#include "frontend/GrammarAlternatives.h"
#include "frontend/ParseTreeDispatch.h"

namespace plate::frontend {

namespace {

template <class... Rules>
std::vector<GrammarAlternative> listAlternatives(TypeList<Rules...>) {
  std::vector<GrammarAlternative> all;
  auto add = [&](std::string_view rule, const auto &labels) {
    for (std::string_view label : labels)
      all.push_back({rule, label});
  };
  (add(Alternatives<Rules>::rule, Alternatives<Rules>::labels), ...);
  return all;
}

} // namespace

std::vector<GrammarAlternative> grammarAlternatives() {
  return listAlternatives(LabelledRules{});
}

} // namespace plate::frontend
