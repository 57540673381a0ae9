//===- LLVM14Print.cpp - Print a module in LLVM 14's spelling -------------===//
//
// What is left after LLVM14Compat.cpp is pure syntax that LLVM 22's printer
// offers no switch for: splat constants, `memory(...)`, `captures(none)` and
// the name of calling convention 102. They are respelled on the printed text,
// outside string literals and comments; the `; Function Attrs:` comments,
// which repeat the attribute groups in LLVM 22's spelling, are dropped; the
// result is checked for tokens newer than LLVM 14.
//
//===----------------------------------------------------------------------===//

#include "conversion/LLVMIRExport/LLVM14Compat.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace llvm;

namespace {

Error syntaxError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Splat constants
//===----------------------------------------------------------------------===//

/// For each printed splat `splat (T v)`: the vector lengths it occurs with.
using SplatLengths = StringMap<std::set<unsigned>>;

void collectSplats(const Constant *constant,
                   DenseSet<const Constant *> &visited, SplatLengths &splats) {
  if (!visited.insert(constant).second || isa<GlobalValue>(constant))
    return;
  if (auto *vectorType = dyn_cast<FixedVectorType>(constant->getType())) {
    const Constant *element = constant->getSplatValue();
    // The condition under which AsmWriter prints `splat (...)`.
    if (element && isa<ConstantInt, ConstantFP>(element) &&
        isa<ConstantDataVector, ConstantVector, ConstantInt, ConstantFP>(
            constant)) {
      std::string key;
      raw_string_ostream os(key);
      os << "splat (";
      element->printAsOperand(os, /*PrintType=*/true);
      os << ")";
      splats[key].insert(vectorType->getNumElements());
    }
  }
  for (const Value *operand : constant->operands())
    if (auto *inner = dyn_cast<Constant>(operand))
      collectSplats(inner, visited, splats);
}

SplatLengths collectSplats(const Module &module) {
  SplatLengths splats;
  DenseSet<const Constant *> visited;
  for (const GlobalVariable &global : module.globals())
    if (global.hasInitializer())
      collectSplats(global.getInitializer(), visited, splats);
  for (const Function &func : module)
    for (const Instruction &inst : instructions(func))
      for (const Value *operand : inst.operands())
        if (auto *constant = dyn_cast<Constant>(operand))
          collectSplats(constant, visited, splats);
  return splats;
}

/// The length of the splat `key` printed at the end of `line`: the only
/// length it has in the module, or else that of the last `<N x T>` before it
/// on the line (binary operators, compares and phis print the type once).
Expected<unsigned> splatLength(StringRef key, StringRef elementType,
                               StringRef line, const SplatLengths &splats) {
  auto it = splats.find(key);
  if (it == splats.end())
    return syntaxError("unexpected '" + key + "' in the printed module");
  const std::set<unsigned> &lengths = it->second;
  if (lengths.size() == 1)
    return *lengths.begin();
  Regex vectorType("<([0-9]+) x " + Regex::escape(elementType) + ">");
  std::optional<unsigned> last;
  SmallVector<StringRef> groups;
  StringRef rest = line;
  while (vectorType.match(rest, &groups)) {
    unsigned length;
    if (!groups[1].getAsInteger(10, length) && lengths.count(length))
      last = length;
    rest = rest.drop_front(groups[0].data() - rest.data() + groups[0].size());
  }
  if (!last)
    return syntaxError("cannot tell the vector length of '" + key + "' in '" +
                       line + "'");
  return *last;
}

//===----------------------------------------------------------------------===//
// memory(...)
//===----------------------------------------------------------------------===//

/// Spells `memory(<body>)` with LLVM 14 attributes, widening where needed
/// (LLVM14Compat.cpp has already narrowed what reaches here to what LLVM 14
/// can say exactly).
Expected<std::string> spellMemory(StringRef body) {
  enum : unsigned { Read = 1, Write = 2 };
  auto parseKind = [](StringRef kind) -> std::optional<unsigned> {
    return StringSwitch<std::optional<unsigned>>(kind)
        .Case("none", 0u)
        .Case("read", unsigned(Read))
        .Case("write", unsigned(Write))
        .Case("readwrite", unsigned(Read | Write))
        .Default(std::nullopt);
  };
  unsigned defaultKind = 0, all = 0;
  bool arg = false, inaccessible = false, other = false;
  SmallVector<StringRef> items;
  body.split(items, ',');
  for (StringRef item : items) {
    auto [location, kindText] = item.split(':');
    if (kindText.empty())
      std::swap(location, kindText);
    std::optional<unsigned> kind = parseKind(kindText.trim());
    if (!kind)
      return syntaxError("unexpected 'memory(" + body + ")'");
    location = location.trim();
    all |= *kind;
    if (location.empty())
      defaultKind = *kind;
    else if (*kind && location == "argmem")
      arg = true;
    else if (*kind && location == "inaccessiblemem")
      inaccessible = true;
    else if (*kind)
      other = true;
  }
  std::string spelled;
  if (all == 0)
    return std::string("readnone");
  if (!defaultKind && !other) {
    if (arg && inaccessible)
      spelled = "inaccessiblemem_or_argmemonly";
    else if (arg)
      spelled = "argmemonly";
    else
      spelled = "inaccessiblememonly";
  }
  StringRef access = all == Read ? "readonly" : all == Write ? "writeonly" : "";
  if (!access.empty())
    spelled += (spelled.empty() ? "" : " ") + access.str();
  return spelled;
}

//===----------------------------------------------------------------------===//
// The text pass
//===----------------------------------------------------------------------===//

/// How LLVM 22 prints calling convention 102 (`mtgpu_kernel`): the number
/// has since been given to an AArch64 convention. LLVM 14 reads `cc102`.
constexpr StringLiteral kKernelCCName = "aarch64_sme_preservemost_from_x0";

/// Tokens LLVM 22 prints that LLVM 14 rejects; none may survive.
constexpr StringLiteral kForbiddenWords[] = {
    "nneg", "disjoint", "samesign", "nusw", "initializes", "nofpclass",
    "dead_on_unwind", "writable", "dead_on_return", kKernelCCName};
constexpr StringLiteral kForbiddenPrefixes[] = {
    "splat (", "memory(", "captures(", "inrange(", "range(", "#dbg_"};

/// True if a keyword may start at `pos`: not inside a name such as
/// `@memory(` or `%x.splat`.
bool startsKeyword(StringRef text, size_t pos) {
  return pos == 0 || StringRef(" \t(,{[<").contains(text[pos - 1]);
}

Expected<std::string> respell(StringRef text, const SplatLengths &splats) {
  std::string out;
  out.reserve(text.size());
  bool inString = false, inComment = false;
  size_t lineStart = 0; // in `out`
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '\n') {
      inString = inComment = false;
      out.push_back(c);
      lineStart = out.size();
      ++i;
      continue;
    }
    if (inComment || (inString && c != '"')) {
      out.push_back(c);
      ++i;
      continue;
    }
    if (c == ';' && text.substr(i).starts_with("; Function Attrs:") &&
        (i == 0 || text[i - 1] == '\n')) {
      i = std::min(text.find('\n', i), text.size()) + 1;
      continue;
    }
    if (c == '"' || c == ';') {
      if (c == '"')
        inString = !inString;
      else
        inComment = true;
      out.push_back(c);
      ++i;
      continue;
    }
    StringRef rest = text.substr(i);
    if (rest.starts_with("splat (") && startsKeyword(text, i)) {
      size_t close = rest.find(')');
      if (close == StringRef::npos)
        return syntaxError("unterminated splat constant");
      StringRef key = rest.take_front(close + 1);
      StringRef element = key.drop_front(strlen("splat (")).drop_back();
      StringRef elementType = element.split(' ').first;
      auto length =
          splatLength(key, elementType, StringRef(out).substr(lineStart),
                      splats);
      if (!length)
        return length.takeError();
      out += "<";
      for (unsigned k = 0; k < *length; ++k)
        out += (k ? ", " : "") + element.str();
      out += ">";
      i += key.size();
      continue;
    }
    if (rest.starts_with("memory(") && startsKeyword(text, i)) {
      size_t close = rest.find(')');
      if (close == StringRef::npos)
        return syntaxError("unterminated memory attribute");
      auto spelled = spellMemory(rest.slice(strlen("memory("), close));
      if (!spelled)
        return spelled.takeError();
      out += *spelled;
      i += close + 1;
      continue;
    }
    if (rest.starts_with(kKernelCCName) && startsKeyword(text, i)) {
      out += "cc102";
      i += kKernelCCName.size();
      continue;
    }
    if (rest.starts_with("captures(none)") && startsKeyword(text, i)) {
      out += "nocapture";
      i += strlen("captures(none)");
      continue;
    }
    out.push_back(c);
    ++i;
  }
  return out;
}

/// Fails if `text` still holds a token newer than LLVM 14 outside strings
/// and comments: a guard against a rule the rewrite does not know yet.
Error checkNoNewTokens(StringRef text) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    // Names and strings may contain anything; look only at the code.
    std::string code;
    bool inString = false;
    for (char c : line) {
      if (c == '"')
        inString = !inString;
      else if (!inString && c == ';')
        break;
      code.push_back(inString ? ' ' : c);
    }
    StringRef codeRef(code);
    for (StringRef prefix : kForbiddenPrefixes) {
      size_t pos = codeRef.find(prefix);
      for (; pos != StringRef::npos; pos = codeRef.find(prefix, pos + 1))
        if (prefix == "#dbg_" || startsKeyword(codeRef, pos))
          return syntaxError("'" + prefix + "' left in '" + line.trim() +
                             "'");
    }
    for (StringRef word : kForbiddenWords) {
      for (size_t pos = codeRef.find(word); pos != StringRef::npos;
           pos = codeRef.find(word, pos + 1)) {
        bool startsWord = startsKeyword(codeRef, pos);
        size_t end = pos + word.size();
        bool endsWord = end == codeRef.size() || codeRef[end] == ' ' ||
                        codeRef[end] == ',' || codeRef[end] == ')';
        if (startsWord && endsWord)
          return syntaxError("'" + word + "' left in '" + line.trim() + "'");
      }
    }
  }
  return Error::success();
}

} // namespace

Expected<std::string>
mlir::triton_musa::printLLVM14Module(const Module &module) {
  std::string text;
  raw_string_ostream os(text);
  module.print(os, /*AAW=*/nullptr);
  auto respelled = respell(text, collectSplats(module));
  if (!respelled)
    return respelled.takeError();
  if (Error error = checkNoNewTokens(*respelled))
    return std::move(error);
  return respelled;
}
