#pragma once

/// English ordinals for messages: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st.

#include <cstdint>
#include <string>

namespace rescfg {

/// `n` followed by its English suffix (st, nd, rd or th).
std::string EnglishOrdinal(uint64_t n);

}  // namespace rescfg
