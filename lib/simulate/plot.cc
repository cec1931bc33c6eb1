#include "simulate/plot.h"

#include <algorithm>
#include <numeric>

namespace rescfg {
namespace {

constexpr int kWidth = 1200, kMargin = 40;
constexpr int kCharPx = 7;  ///< a generous average advance of 12 px DejaVu Sans
/// Tableau's qualitative palette; grey is kept for the policies not shown.
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                    "#e377c2", "#17becf", "#bcbd22", "#aec7e8", "#ffbb78"};
constexpr int kColours = 11;
constexpr const char* kOtherColour = "#9e9e9e";

struct Unit {
  const char* name;
  Micros micros;
};

/// The unit that shows a span as a few tens at most.
Unit UnitFor(Micros span) {
  constexpr Micros kMinute = 60 * kMicrosPerSecond, kHour = 60 * kMinute, kDay = 24 * kHour;
  if (span <= 2 * kMinute) return {"seconds", kMicrosPerSecond};
  if (span <= 2 * kHour) return {"minutes", kMinute};
  if (span <= 2 * kDay) return {"hours", kHour};
  return {"days", kDay};
}

/// `v` in `unit` with at most one decimal, rounded half up: "12", "2.5".
std::string InUnit(Micros v, Unit unit) {
  const __int128 tenths = (__int128(v) * 10 + unit.micros / 2) / unit.micros;
  std::string out = std::to_string(static_cast<int64_t>(tenths / 10));
  if (tenths % 10 != 0) out += "." + std::to_string(static_cast<int64_t>(tenths % 10));
  return out;
}

/// A tick step of 1, 2 or 5 times a power of ten tenths of `unit`, the
/// smallest with at most `ticks` steps over `span`.
Micros NiceStep(Micros span, Unit unit, int ticks) {
  for (__int128 scale = 1;; scale *= 10) {
    for (int f : {1, 2, 5}) {
      const __int128 step = __int128(unit.micros) * f * scale / 10;
      if (step > 0 && span / step <= ticks) return static_cast<Micros>(step);
    }
  }
}

std::string Escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

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
  void Line(int x1, int y1, int x2, int y2, std::string_view stroke) {
    out_ += "<line x1=\"" + std::to_string(x1) + "\" y1=\"" + std::to_string(y1) + "\" x2=\"" + std::to_string(x2) +
            "\" y2=\"" + std::to_string(y2) + "\" stroke=\"" + std::string(stroke) + "\"/>\n";
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
  return g;
}

class Plot {
 public:
  explicit Plot(const SimulationReport& r) : r_(r), groups_(MakeGroups(r)) {
    span_ = r.start && r.end ? *r.end - *r.start : 0;
    time_unit_ = UnitFor(span_);
  }

  std::string Render() {
    int y = 32;
    std::string title = "rescfg simulate";
    if (r_.start) title += ": " + FormatSimTime(*r_.start) + " to " + FormatSimTime(*r_.end);
    body_.Text(kMargin, y, 16, "start", title, " font-weight=\"bold\"");
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
  /// Coloured squares and names, five to a row; returns the y below it.
  int Legend(int y) {
    constexpr int kItem = (kWidth - 2 * kMargin) / 5;
    for (size_t g = 0; g < groups_.labels.size(); ++g) {
      const int x = kMargin + static_cast<int>(g % 5) * kItem, row = y + static_cast<int>(g / 5) * 22;
      body_.Rect(x, row, 14, 14, groups_.colours[g]);
      body_.Text(x + 20, row + 12, 12, "start", Fit(groups_.labels[g], kItem - 28));
    }
    return y + static_cast<int>((groups_.labels.size() + 4) / 5) * 22;
  }

  /// Small multiples of pool usage over time, stacked by colour group.
  int Pools(int y) {
    const int pools = static_cast<int>(r_.pools.size());
    body_.Text(kMargin, y + 12, 13, "start",
               "GPUs in use per pool, stacked by policy (y: GPUs; x: " + std::string(time_unit_.name) +
                   " since the start)", " font-weight=\"bold\"");
    y += 26;
    if (pools == 0) return y;
    const int cols = std::min(4, pools), gap = 36;
    const int panel = (kWidth - 2 * kMargin - (cols - 1) * gap) / cols;
    constexpr int kAxis = 40, kTitle = 18, kPlot = 80, kTicks = 18, kRowGap = 14;
    const int plot_w = panel - kAxis, bins = std::max(1, plot_w / 2);
    std::vector<Micros> edges(static_cast<size_t>(bins) + 1);
    for (int i = 0; i <= bins; ++i) edges[i] = r_.start ? *r_.start + static_cast<Micros>(__int128(span_) * i / bins) : 0;
    // usage[pool][group][bin]: ticks × microseconds within the bin.
    const size_t groups = groups_.labels.size();
    std::vector<std::vector<std::vector<__int128>>> usage(
        static_cast<size_t>(pools), std::vector<std::vector<__int128>>(groups, std::vector<__int128>(bins, 0)));
    for (const UsageInterval& in : r_.intervals) {
      const int group = groups_.Of(in.policy);
      if (group < 0 || span_ <= 0) continue;
      auto& row = usage[in.pool][group];
      int b = static_cast<int>(std::upper_bound(edges.begin(), edges.end(), in.from) - edges.begin()) - 1;
      for (b = std::max(b, 0); b < bins && edges[b] < in.to; ++b) {
        const Micros from = std::max(in.from, edges[b]), to = std::min(in.to, edges[b + 1]);
        if (to > from) row[b] += in.amount.ticks() * (to - from);
      }
    }
    for (int p = 0; p < pools; ++p) {
      const PoolStats& pool = r_.pools[p];
      const int px = kMargin + (p % cols) * (panel + gap);
      const int py = y + (p / cols) * (kTitle + kPlot + kTicks + kRowGap);
      const int x0 = px + kAxis, top = py + kTitle, bottom = top + kPlot;
      body_.Text(x0, py + 12, 12, "start", Fit(pool.name + " (" + pool.size.ToString() + ")", panel - kAxis));
      body_.Rect(x0, top, plot_w, kPlot, "#f4f4f4");
      const Quantity ymax = std::max(pool.size, pool.peak_in_use);
      body_.Text(x0 - 4, top + 10, 11, "end", Fit(ymax.ToString(), kAxis - 6));
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
      if (ymax > pool.size && ymax.ticks() > 0) {
        const int ys = bottom - static_cast<int>(pool.size.ticks() * kPlot / ymax.ticks());
        body_.Line(x0, ys, x0 + plot_w, ys, "#333333");
      }
      body_.Rect(x0, top, plot_w, kPlot, "none", " stroke=\"#999999\"");
      const Micros step = NiceStep(std::max<Micros>(span_, 1), time_unit_, 3);
      for (Micros at = 0; at <= span_; at += step) {
        const int x = x0 + static_cast<int>(__int128(at) * plot_w / std::max<Micros>(span_, 1));
        body_.Line(x, bottom, x, bottom + 3, "#999999");
        body_.Text(x, bottom + 14, 10, at == 0 ? "start" : "middle", InUnit(at, time_unit_));
      }
    }
    const int rows = (pools + cols - 1) / cols;
    return y + rows * (kTitle + kPlot + kTicks + kRowGap);
  }

  /// The share of each group's started jobs that waited at most x.
  int Waits(int y) {
    body_.Text(kMargin, y, 13, "start", "Wait before start, per policy (cumulative share of started jobs)",
               " font-weight=\"bold\"");
    y += 14;
    constexpr int kAxis = 56, kHeight = 240;
    const int x0 = kMargin + kAxis, w = kWidth - 2 * kMargin - kAxis - 10, top = y + 10, bottom = top + kHeight;
    std::vector<std::vector<Micros>> waits(groups_.labels.size());
    Micros longest = 0;
    for (size_t p = 0; p < r_.policies.size(); ++p) {
      const int g = groups_.of_policy[p];
      if (g < 0) continue;
      waits[g].insert(waits[g].end(), r_.policies[p].waits.begin(), r_.policies[p].waits.end());
      if (!r_.policies[p].waits.empty()) longest = std::max(longest, r_.policies[p].waits.back());
    }
    const Unit unit = UnitFor(std::max<Micros>(longest, kMicrosPerSecond));
    // The axis ends on a tick at or past the longest wait.
    const Micros step = NiceStep(std::max<Micros>(longest, kMicrosPerSecond), unit, 8);
    const Micros xmax = (std::max<Micros>(longest, 1) + step - 1) / step * step;
    body_.Rect(x0, top, w, kHeight, "#f4f4f4");
    for (int t = 0; t <= 4; ++t) {
      const int yt = bottom - t * kHeight / 4;
      body_.Line(x0, yt, x0 + w, yt, "#dddddd");
      body_.Text(x0 - 6, yt + 4, 11, "end", std::to_string(25 * t));
    }
    for (Micros at = 0; at <= xmax; at += step) {
      const int xt = x0 + static_cast<int>(__int128(at) * w / xmax);
      body_.Line(xt, bottom, xt, bottom + 4, "#999999");
      body_.Text(xt, bottom + 16, 11, at == 0 ? "start" : at + step > xmax ? "end" : "middle", InUnit(at, unit));
    }
    body_.Text(x0 + w / 2, bottom + 34, 12, "middle", "wait before start (" + std::string(unit.name) + ")");
    const int ylabel_x = kMargin + 12, ylabel_y = top + kHeight / 2;
    body_.Text(ylabel_x, ylabel_y, 12, "middle", "started jobs (%)",
               " transform=\"rotate(-90 " + std::to_string(ylabel_x) + " " + std::to_string(ylabel_y) + ")\"");
    for (size_t g = 0; g < waits.size(); ++g) {
      std::vector<Micros>& list = waits[g];
      if (list.empty()) continue;
      std::sort(list.begin(), list.end());
      std::string d;
      for (int px = 0; px <= w; ++px) {
        const Micros at = static_cast<Micros>(__int128(xmax) * px / w);
        const size_t count = static_cast<size_t>(std::upper_bound(list.begin(), list.end(), at) - list.begin());
        d += Point(px == 0 ? 'M' : 'L', x0 + px, bottom - static_cast<int>(__int128(count) * kHeight / list.size()));
      }
      body_.Path(d, "none", groups_.colours[g]);
    }
    body_.Rect(x0, top, w, kHeight, "none", " stroke=\"#999999\"");
    return bottom + 40;
  }

  const SimulationReport& r_;
  Groups groups_;
  Micros span_ = 0;
  Unit time_unit_;
  Svg body_;
};

}  // namespace

std::string RenderSimulationPlot(const SimulationReport& report) { return Plot(report).Render(); }

}  // namespace rescfg
