//===- TuneReport.cpp - The tuner's search space and report ---------------===//
//
// The space of configurations a kernel declares, and the report of a
// search: its entries' labels and outcomes, and the table --tune prints.
// The search itself is Tuner.cpp's.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Tuner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// The search space
//===----------------------------------------------------------------------===//

std::string TuneConfig::str() const {
  std::string text = llvm::join(defines, " ");
  if (waves)
    text += (text.empty() ? "" : " ") + ("waves=" + formatWaves(*waves));
  return text.empty() ? "(defaults)" : text;
}

std::vector<TuneConfig>
mlir::tile::enumerateSearchSpace(llvm::ArrayRef<KernelParam> params) {
  std::vector<TuneConfig> configs(1);
  for (const KernelParam &param : params) {
    if (param.isType || param.isDefined || param.values.empty())
      continue;
    std::vector<TuneConfig> next;
    next.reserve(configs.size() * param.values.size());
    for (const TuneConfig &config : configs)
      for (const std::string &value : param.values) {
        TuneConfig extended = config;
        extended.defines.push_back(param.name + "=" + value);
        next.push_back(std::move(extended));
      }
    configs = std::move(next);
  }
  return configs;
}

//===----------------------------------------------------------------------===//
// Tuning
//===----------------------------------------------------------------------===//

llvm::StringRef mlir::tile::getOutcomeName(TuneEntry::Outcome outcome) {
  switch (outcome) {
  case TuneEntry::Outcome::Timed:
    return "timed";
  case TuneEntry::Outcome::Inadmissible:
    return "inadmissible";
  case TuneEntry::Outcome::Dominated:
    return "dominated";
  case TuneEntry::Outcome::CompileFailed:
    return "compile failed";
  case TuneEntry::Outcome::Spills:
    return "spills";
  case TuneEntry::Outcome::RunFailed:
    return "run failed";
  case TuneEntry::Outcome::Wrong:
    return "wrong result";
  case TuneEntry::Outcome::Unranked:
    return "not timed";
  }
  llvm_unreachable("unknown outcome");
}

std::string TuneEntry::getLabel() const {
  return variantName.empty() ? config.str() : variantName + ": " + config.str();
}

const TuneEntry *TuneReport::getBest() const {
  if (entries.empty() || entries.front().outcome != TuneEntry::Outcome::Timed)
    return nullptr;
  return &entries.front();
}

void TuneReport::print(llvm::raw_ostream &os) const {
  unsigned timed = llvm::count_if(entries, [](const TuneEntry &entry) {
    return entry.outcome == TuneEntry::Outcome::Timed;
  });
  os << llvm::formatv("tune: {0} configurations, {1} compiled, {2} timed, in "
                      "{3:f1} s\n",
                      entries.size(), compiled, timed, seconds);
  unsigned rank = 0;
  for (const TuneEntry &entry : entries) {
    if (entry.outcome == TuneEntry::Outcome::Timed) {
      os << llvm::formatv("  {0,3}  {1,9:f4} ms  {2,3} regs  {3}", ++rank,
                          entry.milliseconds, entry.registers,
                          entry.getLabel());
      if (entry.localBytes > 0)
        os << "  (spills: " << entry.localBytes << " bytes per thread)";
      if (entry.timedOnce)
        os << llvm::format("  (timed once: over %gx the fastest)", kStopFactor);
      if (!entry.pruned.empty())
        os << "  (pruned: " << entry.pruned << ")";
      if (entry.confirmedRounds)
        os << "  (finalist: median of " << entry.confirmedRounds << " rounds)";
      if (entry.checked)
        os << "  (checked)";
      os << "\n";
      continue;
    }
    os << llvm::formatv("    -  {0,-14} {1}: {2}\n",
                        getOutcomeName(entry.outcome), entry.getLabel(),
                        entry.reason);
  }
}
