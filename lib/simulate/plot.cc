#include "simulate/plot.h"

#include <algorithm>
#include <numeric>

#include "config/human_amount.h"
#include "util/xml_text.h"

namespace rescfg {
namespace {

constexpr int kWidth = 1200, kMargin = 40;
constexpr int kCharPx = 7;  ///< a generous average advance of 12 px DejaVu Sans
/// Tableau's qualitative palette; grey is kept for the policies not shown.
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                    "#e377c2", "#17becf", "#bcbd22", "#aec7e8", "#ffbb78"};
constexpr int kColours = 11;
constexpr const char* kOtherColour = "#9e9e9e";
/// Preemption marks: near-black, apart from every policy's colour.
constexpr const char* kMarkColour = "#222222";

constexpr Micros kSecond = kMicrosPerSecond, kMinute = 60 * kSecond, kHour = 60 * kMinute, kDay = 24 * kHour;

/// log2(x) in 1/65536ths, for x >= 1, in integers (the same bytes on every
/// machine): the integer part from the highest bit, the rest by squaring.
int64_t Log2Q16(uint64_t x) {
  if (x <= 1) return 0;
  const int whole = 63 - __builtin_clzll(x);
  // y = x / 2^whole in Q32, in [1, 2).
  unsigned __int128 y = whole >= 32 ? (unsigned __int128)(x >> (whole - 32)) : (unsigned __int128)x << (32 - whole);
  int64_t out = int64_t(whole) << 16;
  for (int bit = 15; bit >= 0; --bit) {
    y = (y * y) >> 32;
    if (y >= ((unsigned __int128)1 << 33)) {
      y >>= 1;
      out |= int64_t(1) << bit;
    }
  }
  return out;
}

/// Steps of a time axis that people count in: minutes to weeks.
constexpr Micros kTimeSteps[] = {kMinute,     5 * kMinute, 10 * kMinute, 15 * kMinute, 30 * kMinute,
                                 kHour,       2 * kHour,   3 * kHour,    6 * kHour,    12 * kHour,
                                 kDay,        2 * kDay,    7 * kDay,     14 * kDay,    28 * kDay};

/// The smallest natural step that puts at most `ticks` ticks over `span`.
Micros TimeStep(Micros span, int ticks) {
  for (Micros step : kTimeSteps) {
    if (span / step < ticks) return step;
  }
  return (span / ticks / (28 * kDay) + 1) * 28 * kDay;
}

/// The first tick at or after `t`: a whole multiple of `step` in UTC;
/// weeks start on Monday (1970-01-01 was a Thursday).
Micros FirstTick(Micros t, Micros step) {
  const Micros offset = step % (7 * kDay) == 0 ? 4 * kDay : 0;
  Micros k = (t - offset) / step;
  if (k * step + offset < t) ++k;
  return k * step + offset;
}

/// Where waits are marked: seconds to a year, each in the unit it reads best in.
struct WaitTick {
  Micros at;
  const char* label;
};
constexpr WaitTick kWaitTicks[] = {{kSecond, "1 s"},      {10 * kSecond, "10 s"}, {kMinute, "1 min"},
                                   {10 * kMinute, "10 min"}, {kHour, "1 h"},        {6 * kHour, "6 h"},
                                   {kDay, "1 day"},        {7 * kDay, "7 days"},   {30 * kDay, "30 days"},
                                   {365 * kDay, "1 year"}};

std::string Escape(std::string_view text) { return XmlText(text); }

/// `text` cut to `px` pixels of text (on a character boundary, with "…").
std::string Fit(std::string_view text, int px) {
  const size_t room = static_cast<size_t>(std::max(1, px / kCharPx));
  size_t chars = 0, cut = text.size();
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (chars == room - 1) cut = i;
    if (++chars > room) return std::string(text.substr(0, cut)) + "\u2026";
  }
  return std::string(text);
}

class Svg {
 public:
  void Text(int x, int y, int size, const char* anchor, std::string_view text, std::string_view extra = "") {
    out_ += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" font-size=\"" +
            std::to_string(size) + "\" text-anchor=\"" + anchor + "\"" + std::string(extra) + ">" + Escape(text) +
            "</text>\n";
  }
  void Rect(int x, int y, int w, int h, std::string_view fill, std::string_view extra = "") {
    out_ += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(w) +
            "\" height=\"" + std::to_string(h) + "\" fill=\"" + std::string(fill) + "\"" + std::string(extra) + "/>\n";
  }
  void Line(int x1, int y1, int x2, int y2, std::string_view stroke, std::string_view extra = "") {
    out_ += "<line x1=\"" + std::to_string(x1) + "\" y1=\"" + std::to_string(y1) + "\" x2=\"" + std::to_string(x2) +
            "\" y2=\"" + std::to_string(y2) + "\" stroke=\"" + std::string(stroke) + "\"" + std::string(extra) + "/>\n";
  }
  void Path(const std::string& d, std::string_view fill, std::string_view stroke) {
    out_ += "<path d=\"" + d + "\" fill=\"" + std::string(fill) + "\" stroke=\"" + std::string(stroke) + "\"" +
            (stroke == "none" ? "" : " stroke-width=\"2\"") + "/>\n";
  }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

std::string Point(char op, int x, int y) { return op + std::to_string(x) + " " + std::to_string(y) + " "; }

/// Colour groups: each policy's, or the shared "other policies".
struct Groups {
  std::vector<int> of_policy;       ///< per policy: its group
  std::vector<std::string> labels;  ///< per group
  std::vector<const char*> colours;
  std::vector<uint64_t> preempted;  ///< per group: its jobs stopped at least once
  int other = -1;                   ///< the grey group, if any
  int Of(const std::optional<uint32_t>& policy) const { return policy ? of_policy[*policy] : other; }
};

Groups MakeGroups(const SimulationReport& r) {
  Groups g;
  const size_t n = r.policies.size();
  bool unowned = std::any_of(r.intervals.begin(), r.intervals.end(), [](const UsageInterval& i) { return !i.policy; });
  const size_t shown = n <= static_cast<size_t>(kColours) ? n : kColours - 1;
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  if (n > shown) {  // the policies that used most, ties in configuration order
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return r.policies[b].usage < r.policies[a].usage; });
    std::sort(order.begin(), order.begin() + static_cast<long>(shown));
  }
  g.of_policy.assign(n, -1);
  for (size_t i = 0; i < shown; ++i) {
    g.of_policy[order[i]] = static_cast<int>(i);
    g.labels.push_back(r.policies[order[i]].name);
    g.colours.push_back(kPalette[i]);
  }
  if (n > shown || unowned) {
    g.other = static_cast<int>(g.labels.size());
    std::string label = n > shown ? std::to_string(n - shown) + " other policies" : "no policy";
    if (n > shown && unowned) label += ", no policy";
    g.labels.push_back(label);
    g.colours.push_back(kOtherColour);
    for (int& group : g.of_policy) {
      if (group < 0) group = g.other;
    }
  }
  g.preempted.assign(g.labels.size(), 0);
  for (size_t p = 0; p < n; ++p) g.preempted[static_cast<size_t>(g.of_policy[p])] += r.policies[p].jobs_preempted;
  return g;
}

/// Which pools get a panel of their own: all of them up to kMaxPanels;
/// beyond, the kMaxPanels - 1 that used the most GPU-hours (ties in
/// configuration order), and one "rest" panel sums the others — so that a
/// thousand pools still make a picture renderers accept (32 767 px).
constexpr int kMaxPanels = 48;

struct Panels {
  std::vector<int> of_pool;  ///< per pool: its panel
  std::vector<std::string> titles;
  std::vector<Quantity> sizes;
  int rest = -1;  ///< the panel of the folded pools, if any
};

Panels MakePanels(const SimulationReport& r) {
  Panels p;
  const size_t n = r.pools.size();
  p.of_pool.assign(n, -1);
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t(0));
  const size_t own = n <= static_cast<size_t>(kMaxPanels) ? n : kMaxPanels - 1;
  if (own < n) {
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return r.pools[b].usage < r.pools[a].usage; });
    std::sort(order.begin(), order.begin() + static_cast<long>(own));
  }
  for (size_t i = 0; i < own; ++i) {
    const PoolStats& pool = r.pools[order[i]];
    p.of_pool[order[i]] = static_cast<int>(i);
    p.titles.push_back(pool.name + " (" + HumanAmount(pool.size) + ")");
    p.sizes.push_back(std::max(pool.size, pool.peak_in_use));
  }
  if (own < n) {
    p.rest = static_cast<int>(own);
    Quantity total;
    for (size_t i = own; i < n; ++i) {
      p.of_pool[order[i]] = p.rest;
      total += r.pools[order[i]].size;
    }
    p.titles.push_back(std::to_string(n - own) + " other pools (" + HumanAmount(total) + ")");
    p.sizes.push_back(total);
  }
  return p;
}

class Plot {
 public:
  explicit Plot(const SimulationReport& r) : r_(r), groups_(MakeGroups(r)), panels_(MakePanels(r)) {
    span_ = r.start && r.end ? *r.end - *r.start : 0;
  }

  std::string Render() {
    int y = 32;
    body_.Text(kMargin, y, 16, "start", Fit(Title(), kWidth - 2 * kMargin), " font-weight=\"bold\"");
    y = Legend(y + 20);
    y = Pools(y + 16);
    y = Waits(y + 24);
    const int height = y + 20;
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(kWidth) + "\" height=\"" +
           std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(kWidth) + " " + std::to_string(height) +
           "\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n" + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" +
           body_.out() + "</svg>\n";
  }

 private:
  /// "Simulated use of 32 pools by 6 policies, Sun 29 Nov 2026 10:00 to
  /// Sun 29 Nov 2026 12:15 UTC (2h15m)".
  std::string Title() const {
    auto plural = [](size_t n, const char* one, const char* many) {
      return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    std::string title = "Simulated use of " + plural(r_.pools.size(), "pool", "pools") + " by " +
                        plural(r_.policies.size(), "policy", "policies");
    if (!r_.start) return title + ": nothing was simulated";
    const bool same_day = FormatSimDate(*r_.start, true) == FormatSimDate(*r_.end, true);
    return title + ", " + FormatSimDate(*r_.start, true) + " " + FormatSimClock(*r_.start) + " to " +
           (same_day ? "" : FormatSimDate(*r_.end, true) + " ") + FormatSimClock(*r_.end) + " UTC (" +
           FormatDuration(span_) + ")";
  }

  /// Coloured squares and names, five to a row; returns the y below it.
  /// With preemption, a policy's label counts its jobs preempted, and one
  /// more item shows the mark drawn at each preemption.
  int Legend(int y) {
    constexpr int kItem = (kWidth - 2 * kMargin) / 5;
    const size_t items = groups_.labels.size() + (r_.preemptions > 0 ? 1 : 0);
    for (size_t g = 0; g < items; ++g) {
      const int x = kMargin + static_cast<int>(g % 5) * kItem, row = y + static_cast<int>(g / 5) * 22;
      if (g == groups_.labels.size()) {
        MarkAt(x + 7, row + 2);
        body_.Text(x + 20, row + 12, 12, "start",
                   Fit("preemption (" + std::to_string(r_.preemptions) + (r_.preemptions == 1 ? " stop)" : " stops)"), kItem - 28));
        continue;
      }
      body_.Rect(x, row, 14, 14, groups_.colours[g]);
      std::string label = groups_.labels[g];
      if (groups_.preempted[g] > 0) label += ", " + std::to_string(groups_.preempted[g]) + " preempted";
      body_.Text(x + 20, row + 12, 12, "start", Fit(label, kItem - 28));
    }
    return y + static_cast<int>((items + 4) / 5) * 22;
  }

  /// The preemption mark: a triangle pointing down at (x, y + 10).
  void MarkAt(int x, int y) {
    body_.Path(Point('M', x - 6, y) + Point('L', x + 6, y) + Point('L', x, y + 10) + "Z", kMarkColour, "none");
  }

  /// Each instant at which a job holding in a pool of panel `p` was
  /// preempted: a mark at the top of the panel and a line down through it
  /// (one per pixel column, however many stopped there).
  void Marks(int p, int x0, int plot_w, int top, int bottom) {
    if (!r_.start || span_ <= 0) return;
    std::vector<int> xs;
    for (const PreemptionMark& m : r_.marks) {
      if (panels_.of_pool[m.pool] != p || m.time < *r_.start || m.time > *r_.end) continue;
      xs.push_back(x0 + static_cast<int>(__int128(m.time - *r_.start) * plot_w / span_));
    }
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    for (int x : xs) {
      body_.Line(x, top + 10, x, bottom, kMarkColour, " stroke-width=\"2\"");
      MarkAt(x, top);
    }
  }

  /// Ticks of the time axis of a panel `plot_w` wide at x0, below `bottom`:
  /// natural steps in UTC, the time of day, and the date where it changes.
  void TimeTicks(int x0, int plot_w, int bottom) {
    if (!r_.start || span_ <= 0) return;
    const Micros step = TimeStep(span_, 4);
    std::string last_date;
    for (Micros at = FirstTick(*r_.start, step); at <= *r_.end; at += step) {
      const int x = x0 + static_cast<int>(__int128(at - *r_.start) * plot_w / span_);
      body_.Line(x, bottom, x, bottom + 3, "#999999");
      const std::string date = FormatSimDate(at, false);
      if (step < kDay) {
        body_.Text(x, bottom + 14, 10, "middle", FormatSimClock(at));
        if (date != last_date) body_.Text(x, bottom + 26, 10, "middle", date);
      } else {
        body_.Text(x, bottom + 14, 10, "middle", date);
      }
      last_date = date;
    }
  }

  /// Small multiples of pool usage over time, stacked by colour group.
  int Pools(int y) {
    const int panels = static_cast<int>(panels_.titles.size());
    body_.Text(kMargin, y + 12, 13, "start", "GPUs in use per pool over time (UTC), stacked by policy",
               " font-weight=\"bold\"");
    y += 26;
    if (panels == 0) return y;
    const int cols = std::min(4, panels), gap = 36;
    const int panel = (kWidth - 2 * kMargin - (cols - 1) * gap) / cols;
    constexpr int kAxis = 40, kTitle = 18, kPlot = 80, kTicks = 30, kRowGap = 14;
    const int plot_w = panel - kAxis, bins = std::max(1, plot_w / 2);
    std::vector<Micros> edges(static_cast<size_t>(bins) + 1);
    for (int i = 0; i <= bins; ++i) edges[i] = r_.start ? *r_.start + static_cast<Micros>(__int128(span_) * i / bins) : 0;
    // usage[panel][group][bin]: ticks × microseconds within the bin.
    const size_t groups = groups_.labels.size();
    std::vector<std::vector<std::vector<__int128>>> usage(
        static_cast<size_t>(panels), std::vector<std::vector<__int128>>(groups, std::vector<__int128>(bins, 0)));
    for (const UsageInterval& in : r_.intervals) {
      const int group = groups_.Of(in.policy);
      if (group < 0 || span_ <= 0) continue;
      auto& row = usage[panels_.of_pool[in.pool]][group];
      int b = static_cast<int>(std::upper_bound(edges.begin(), edges.end(), in.from) - edges.begin()) - 1;
      for (b = std::max(b, 0); b < bins && edges[b] < in.to; ++b) {
        const Micros from = std::max(in.from, edges[b]), to = std::min(in.to, edges[b + 1]);
        if (to > from) row[b] += in.amount.ticks() * (to - from);
      }
    }
    // Panels in configuration order of their pools, the rest last.
    std::vector<int> shown;
    for (size_t x = 0; x < r_.pools.size(); ++x) {
      const int p = panels_.of_pool[x];
      if (p != panels_.rest && std::find(shown.begin(), shown.end(), p) == shown.end()) shown.push_back(p);
    }
    if (panels_.rest >= 0) shown.push_back(panels_.rest);
    for (int slot = 0; slot < panels; ++slot) {
      const int p = shown[slot];
      const int px = kMargin + (slot % cols) * (panel + gap);
      const int py = y + (slot / cols) * (kTitle + kPlot + kTicks + kRowGap);
      const int x0 = px + kAxis, top = py + kTitle, bottom = top + kPlot;
      body_.Text(x0, py + 12, 12, "start", Fit(panels_.titles[p], panel - kAxis));
      body_.Rect(x0, top, plot_w, kPlot, "#f4f4f4");
      const Quantity ymax = panels_.sizes[p];
      body_.Text(x0 - 4, top + 10, 11, "end", Fit(HumanAmount(ymax), kAxis - 6));
      body_.Text(x0 - 4, bottom, 11, "end", "0");
      if (ymax.ticks() > 0 && span_ > 0) {
        std::vector<__int128> below(bins, 0);
        for (size_t g = 0; g < groups; ++g) {
          const auto& row = usage[p][g];
          if (std::all_of(row.begin(), row.end(), [](__int128 v) { return v == 0; })) continue;
          auto y_of = [&](int b, __int128 cum) {
            const __int128 len = edges[b + 1] - edges[b];
            if (len <= 0) return bottom;
            __int128 h = cum * kPlot / (len * ymax.ticks());
            return bottom - static_cast<int>(std::min<__int128>(h, kPlot));
          };
          std::string d;
          for (int b = 0; b < bins; ++b) {
            const int yt = y_of(b, below[b] + row[b]);
            d += Point(b == 0 ? 'M' : 'L', x0 + b * plot_w / bins, yt);
            d += Point('L', x0 + (b + 1) * plot_w / bins, yt);
          }
          for (int b = bins - 1; b >= 0; --b) {
            const int yb = y_of(b, below[b]);
            d += Point('L', x0 + (b + 1) * plot_w / bins, yb);
            d += Point('L', x0 + b * plot_w / bins, yb);
          }
          d += "Z";
          body_.Path(d, groups_.colours[g], "none");
          for (int b = 0; b < bins; ++b) below[b] += row[b];
        }
      }
      // The pool's size, when running jobs over-fill it.
      if (p != panels_.rest && ymax.ticks() > 0) {
        for (size_t x = 0; x < r_.pools.size(); ++x) {
          if (panels_.of_pool[x] != p || !(ymax > r_.pools[x].size)) continue;
          const int ys = bottom - static_cast<int>(r_.pools[x].size.ticks() * kPlot / ymax.ticks());
          body_.Line(x0, ys, x0 + plot_w, ys, "#333333");
        }
      }
      Marks(p, x0, plot_w, top, bottom);
      body_.Rect(x0, top, plot_w, kPlot, "none", " stroke=\"#999999\"");
      TimeTicks(x0, plot_w, bottom);
    }
    const int rows = (panels + cols - 1) / cols;
    return y + rows * (kTitle + kPlot + kTicks + kRowGap);
  }

  /// For each group, the share of its started jobs that waited longer than
  /// x. Both axes are logarithmic, so that minutes and days, and the few
  /// jobs that wait long among many that wait nothing, are all visible;
  /// waits of 0 get a column of their own left of the break.
  int Waits(int y) {
    body_.Text(kMargin, y, 13, "start",
               "Wait before start, per policy: share of started jobs that waited longer than the time below",
               " font-weight=\"bold\"");
    y += 14;
    constexpr int kAxis = 56, kHeight = 240, kZero = 36, kBreak = 14;
    const int x0 = kMargin + kAxis, w = kWidth - 2 * kMargin - kAxis - 10, top = y + 10, bottom = top + kHeight;
    const int xlog = x0 + kZero + kBreak, wlog = x0 + w - xlog;
    std::vector<std::vector<Micros>> waits(groups_.labels.size());
    Micros longest = 0;
    size_t most = 1;
    for (size_t p = 0; p < r_.policies.size(); ++p) {
      const int g = groups_.of_policy[p];
      if (g < 0) continue;
      waits[g].insert(waits[g].end(), r_.policies[p].waits.begin(), r_.policies[p].waits.end());
      if (!r_.policies[p].waits.empty()) longest = std::max(longest, r_.policies[p].waits.back());
    }
    for (const auto& list : waits) most = std::max(most, list.size());
    // The time axis: 1 s to the first mark at or past the longest wait.
    size_t marks = 0;
    while (marks + 1 < std::size(kWaitTicks) && kWaitTicks[marks].at < std::max(longest, kMinute)) ++marks;
    const Micros xmax = kWaitTicks[marks].at;
    const int64_t lmin = Log2Q16(kSecond), lspan = Log2Q16(static_cast<uint64_t>(xmax)) - lmin;
    auto x_of = [&](Micros v) {
      if (v <= kSecond) return xlog;
      return xlog + static_cast<int>((Log2Q16(static_cast<uint64_t>(v)) - lmin) * wlog / lspan);
    };
    // The share axis: 100% down to 10^-decades, enough for one job in the largest group.
    int decades = 1;
    for (size_t n = 10; n < most && decades < 4; n *= 10) ++decades;
    uint64_t floor = 1;
    for (int d = 0; d < decades; ++d) floor *= 10;
    const int64_t lfloor = Log2Q16(floor);
    auto y_of = [&](size_t count, size_t n) {  // count of n waited longer; count > 0
      const int64_t l = Log2Q16(static_cast<uint64_t>(n)) - Log2Q16(static_cast<uint64_t>(count));
      return top + static_cast<int>(std::min<int64_t>(l * kHeight / lfloor, kHeight));
    };
    body_.Rect(x0, top, kZero, kHeight, "#f4f4f4");
    body_.Rect(xlog, top, wlog, kHeight, "#f4f4f4");
    static constexpr const char* kShares[] = {"100%", "10%", "1%", "0.1%", "0.01%"};
    uint64_t n = 1;
    for (int d = 0; d <= decades; ++d, n *= 10) {
      const int yt = top + static_cast<int>(Log2Q16(n) * kHeight / lfloor);
      body_.Line(x0, yt, x0 + kZero, yt, "#dddddd");
      body_.Line(xlog, yt, xlog + wlog, yt, "#dddddd");
      body_.Text(x0 - 6, yt + 4, 11, "end", kShares[d]);
    }
    body_.Line(x0 + kZero / 2, bottom, x0 + kZero / 2, bottom + 4, "#999999");
    body_.Text(x0 + kZero / 2, bottom + 16, 11, "middle", "0");
    for (size_t m = 0; m <= marks; ++m) {
      const int xt = x_of(kWaitTicks[m].at);
      body_.Line(xt, top, xt, bottom, "#dddddd");
      body_.Line(xt, bottom, xt, bottom + 4, "#999999");
      body_.Text(xt, bottom + 16, 11, m == 0 ? "start" : m == marks ? "end" : "middle", kWaitTicks[m].label);
    }
    body_.Text(xlog + wlog / 2, bottom + 34, 12, "middle", "wait before start (logarithmic; 0: started at once)");
    const int ylabel_x = kMargin + 6, ylabel_y = top + kHeight / 2;
    body_.Text(ylabel_x, ylabel_y, 12, "middle", "waited longer (log)",
               " transform=\"rotate(-90 " + std::to_string(ylabel_x) + " " + std::to_string(ylabel_y) + ")\"");
    // The smallest wait each pixel of the log axis stands for.
    std::vector<Micros> at(static_cast<size_t>(wlog) + 1);
    for (int px = 0; px <= wlog; ++px) {
      Micros lo = kSecond, hi = xmax;  // the least v with x_of(v) >= xlog + px
      while (lo < hi) {
        const Micros mid = lo + (hi - lo) / 2;
        if (x_of(mid) >= xlog + px) hi = mid; else lo = mid + 1;
      }
      at[px] = lo;
    }
    for (size_t g = 0; g < waits.size(); ++g) {
      std::vector<Micros>& list = waits[g];
      if (list.empty()) continue;
      std::sort(list.begin(), list.end());
      auto longer = [&](Micros v) {
        return list.size() - static_cast<size_t>(std::upper_bound(list.begin(), list.end(), v) - list.begin());
      };
      std::string d;
      size_t count = longer(0);
      if (count == 0) {  // nobody waited: a line along the bottom of the zero column
        body_.Path(Point('M', x0, bottom - 1) + Point('L', x0 + kZero, bottom - 1), "none", groups_.colours[g]);
        continue;
      }
      d += Point('M', x0, y_of(count, list.size())) + Point('L', x0 + kZero, y_of(count, list.size()));
      d += Point('M', xlog, y_of(count, list.size()));
      for (int px = 0; px <= wlog; ++px) {
        count = longer(at[px]);
        if (count == 0) {
          d += Point('L', xlog + px, bottom);
          break;
        }
        d += Point('L', xlog + px, y_of(count, list.size()));
      }
      body_.Path(d, "none", groups_.colours[g]);
    }
    body_.Rect(x0, top, kZero, kHeight, "none", " stroke=\"#999999\"");
    body_.Rect(xlog, top, wlog, kHeight, "none", " stroke=\"#999999\"");
    return bottom + 40;
  }

  const SimulationReport& r_;
  Groups groups_;
  Panels panels_;
  Micros span_ = 0;
  Svg body_;
};

}  // namespace

std::string RenderSimulationPlot(const SimulationReport& report) { return Plot(report).Render(); }

}  // namespace rescfg
