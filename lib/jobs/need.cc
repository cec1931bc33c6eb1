#include "jobs/need.h"

namespace rescfg {

Quantity NeedOf(const Profile& profile, const JobEntry& entry, std::string_view* source, std::string* note) {
  *source = "allotment";
  if (!profile.dynamic_parameter) return profile.allotment;
  for (const ParamValue& param : entry.params) {
    if (*param.path != *profile.dynamic_parameter) continue;
    if (param.text) {
      QuantityError error;
      auto value = ParseQuantity(*param.text, &error);
      if (value && !value->is_zero()) {
        *source = "parameter";
        return *value;
      }
      *note = "parameter " + std::string(*param.path) + " = '" + std::string(param.text->substr(0, 40)) +
              "' is not a valid amount (" + (value ? std::string("must be greater than 0") : error.message) +
              "); using the allotment " + profile.allotment.ToString();
    } else {
      *note = "parameter " + std::string(*param.path) + " is not a single value; using the allotment " +
              profile.allotment.ToString();
    }
    *source = "fallback";
    return profile.allotment;
  }
  return profile.allotment;
}

}  // namespace rescfg
