#include "jobs/need.h"

#include "config/human_amount.h"

namespace rescfg {

Quantity NeedOf(const Profile& profile, const JobEntry& entry, NeedSource* source, std::string* note) {
  *source = NeedSource::kAllotment;
  if (!profile.dynamic_parameter) return profile.allotment;
  for (const ParamValue& param : entry.params) {
    if (*param.path != *profile.dynamic_parameter) continue;
    if (param.near_miss) {  // the parameter is absent: the allotment, with a warning
      *note = "params hold '" + std::string(param.text->substr(0, 80)) + "', not '" + std::string(*param.path) +
              "': did you mean '" + std::string(*param.path) + "'? using the allotment " +
              HumanAmount(profile.allotment);
      return profile.allotment;
    }
    if (param.text) {
      QuantityError error;
      auto value = ParseQuantity(*param.text, &error);
      if (value && !value->is_zero()) {
        *source = NeedSource::kParameter;
        return *value;
      }
      if (profile.reject_invalid) {  // dynamic.invalid: reject
        *source = NeedSource::kInvalid;
        *note = std::string(*param.path) + " is '" + std::string(param.text->substr(0, 40)) + "': not a quantity" +
                (value ? " greater than 0" : "");
        return profile.allotment;
      }
      *note = "parameter " + std::string(*param.path) + " = '" + std::string(param.text->substr(0, 40)) +
              "' is not a valid amount (" + (value ? std::string("must be greater than 0") : error.message) +
              "); using the allotment " + HumanAmount(profile.allotment);
    } else if (profile.reject_invalid) {
      *source = NeedSource::kInvalid;
      *note = std::string(*param.path) + " is not a single value: not a quantity";
      return profile.allotment;
    } else {
      *note = "parameter " + std::string(*param.path) + " is not a single value; using the allotment " +
              HumanAmount(profile.allotment);
    }
    *source = NeedSource::kFallback;
    return profile.allotment;
  }
  return profile.allotment;
}

}  // namespace rescfg
