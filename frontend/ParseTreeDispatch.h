//===- ParseTreeDispatch.h - Exhaustive dispatch over grammar alternatives -===//
//
// ANTLR gives each labelled alternative of a rule (`# dispenseStmt` in
// grammar/PlateParser.g4) its own context class derived from the rule's
// context. `visitAlternative(ctx, handler)` calls `handler` with `ctx` cast
// to the class of the alternative that matched. The alternatives of each
// rule are listed at build time from the generated parser
// (frontend/ParserAlternatives.cmake), and every one must have an overload
// in `handler`: an alternative added to the grammar that the AST builder
// does not handle fails the build here, instead of being mis-cast at run
// time as the last case of an if-else chain would do.
//
// Internal to frontend/ (the only layer that sees ANTLR).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostics.h"

#include "PlateParser.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>

namespace plate::frontend {

template <class... Types> struct TypeList {};

/// `List`: the context classes of a rule's labelled alternatives; `rule`
/// and `labels`: their names in the grammar. Only rules with labelled
/// alternatives have a specialization.
template <class RuleContext> struct Alternatives;

#include "PlateParserAlternatives.inc"

namespace detail {

/// Instantiated once per alternative, so that the compiler's error names
/// the alternative that has no case (`[with Alternative = ...]`).
template <class Alternative, class Handler> constexpr bool handled() {
  static_assert(std::is_invocable_v<Handler &, Alternative *>,
                "the handler has no case for this alternative of the grammar: "
                "add one (the instantiation says which alternative)");
  return std::is_invocable_v<Handler &, Alternative *>;
}

template <class Alternative, class Result, class RuleContext, class Handler>
Result callAs(RuleContext *ctx, Handler &handler) {
  return handler(static_cast<Alternative *>(ctx));
}

template <class RuleContext, class Handler, class... Alts>
decltype(auto) dispatch(RuleContext *ctx, Handler &handler) {
  using Result = std::common_type_t<std::invoke_result_t<Handler &, Alts *>...>;
  constexpr size_t count = sizeof...(Alts);
  static const std::type_info *const types[count] = {&typeid(Alts)...};
  using Call = Result (*)(RuleContext *, Handler &);
  static constexpr Call calls[count] = {&callAs<Alts, Result, RuleContext, Handler>...};

  const std::type_info &type = typeid(*ctx);
  // Within one program each class has one type_info, so comparing
  // addresses finds it; the name comparison of operator== is the
  // fallback where the linker did not merge them.
  for (size_t i = 0; i < count; ++i)
    if (types[i] == &type)
      return calls[i](ctx, handler);
  for (size_t i = 0; i < count; ++i)
    if (*types[i] == type)
      return calls[i](ctx, handler);
  // The rule's own context class: the parser made it but matched no
  // alternative, which happens only on a line with a syntax error, and
  // those are never built.
  internalError(__FILE__, __LINE__,
                "parse tree of rule `" + std::string(Alternatives<RuleContext>::rule) +
                    "` matched none of its alternatives");
}

template <class RuleContext, class Handler, class... Alts>
decltype(auto) visitAlternative(RuleContext *ctx, Handler &handler, TypeList<Alts...>) {
  // A case that takes any context (`auto *`, or the rule's own class)
  // would accept an alternative added later, silently.
  static_assert(!std::is_invocable_v<Handler &, RuleContext *>,
                "the handler must name each alternative, not take them all");
  // Counted, not `&&`-ed, so that every missing case is reported.
  // Dispatching is left out then: its errors would bury them.
  constexpr bool handlesAll = ((handled<Alts, Handler>() ? 1 : 0) + ...) == sizeof...(Alts);
  if constexpr (handlesAll)
    return dispatch<RuleContext, Handler, Alts...>(ctx, handler);
}

} // namespace detail

/// Calls `handler(static_cast<Alternative *>(ctx))` for the alternative of
/// `ctx`'s rule that was parsed. `handler` (typically several lambdas
/// joined by `Overloaded`) must accept every alternative of the rule.
template <class RuleContext, class Handler>
decltype(auto) visitAlternative(RuleContext *ctx, Handler &&handler) {
  return detail::visitAlternative(ctx, handler, typename Alternatives<RuleContext>::List{});
}

template <class T, class... Ts> constexpr bool isOneOf = (std::is_same_v<T, Ts> || ...);

/// Whether `Listed` holds the same rules as `Rules`, in any order: lets a
/// file that dispatches over alternatives state which rules it covers and
/// fail to compile when the grammar gains a labelled rule it does not.
template <class... Listed, class... Rules>
constexpr bool sameRules(TypeList<Listed...>, TypeList<Rules...>) {
  return sizeof...(Listed) == sizeof...(Rules) && (isOneOf<Rules, Listed...> && ...);
}

/// Several lambdas as one overloaded handler.
template <class... Lambdas> struct Overloaded : Lambdas... {
  using Lambdas::operator()...;
};
template <class... Lambdas> Overloaded(Lambdas...) -> Overloaded<Lambdas...>;

} // namespace plate::frontend
