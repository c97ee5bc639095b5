// The plot layer; see plot.hpp for the API and its ImPlot-like conventions.
#include "ui/widgets/plot.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

#include <imgui_internal.h>  // ImGuiWindow: which window the wheel scrolls

#include "ui/widgets/panel.hpp"  // stacked_layout, upright_phone
#include "ui/widgets/records.hpp"  // framebuffer_scale
#include "ui/widgets/theme.hpp"

namespace attn::plot {
namespace {

// The current context, set by its owner each frame (as ImGui::SetCurrentContext).
Context* g_context = nullptr;

// Every colour comes from the theme's palette (ui/widgets/theme.hpp), looked up
// while drawing, so plots read in the light and the dark theme alike.
const ui::Palette& colors() { return ui::current_palette(); }

// "Title##id" shows "Title"; "##id" shows nothing.
std::string visible_label(const char* label) {
  const char* hidden = std::strstr(label, "##");
  return hidden ? std::string(label, hidden) : std::string(label);
}

ImVec2 resolve_size(ImVec2 size) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.x <= 0) size.x = std::max(avail.x + size.x, 1.0f);
  if (size.y <= 0) size.y = std::max(avail.y + size.y, 1.0f);
  return size;
}

// Colorbar ticks: a short mark, then a gap so a tick never reads as a minus sign.
float colorbar_tick_length(float font) { return std::floor(font * 0.25f); }
float colorbar_label_offset(float font) { return 1.0f + colorbar_tick_length(font) + std::floor(font * 0.35f); }
int colorbar_max_ticks(float height, float font) { return std::max(2, int(height / (font * 3.0f))); }

std::string format_number(double value, int decimals) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  std::string text = buffer;
  // "-0.00" reads as a bug to a reader; zero has no sign.
  if (text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
  return text;
}

std::vector<std::string> tick_labels(const std::vector<double>& ticks, int decimals) {
  std::vector<std::string> labels;
  for (double t : ticks) labels.push_back(format_number(t, decimals));
  return labels;
}

float widest(const std::vector<std::string>& labels) {
  float width = 0;
  for (const std::string& s : labels) width = std::max(width, ImGui::CalcTextSize(s.c_str()).x);
  return width;
}

// Text turned 90 degrees counter-clockwise (reads bottom to top), centred on
// `center`: add it flat, then rotate the vertices it produced.
// Chinese is written top to bottom with every character upright (a rotated
// 查询 lies on its side): vertical text stacks the characters instead of
// rotating the line. A title that mixes in Latin letters ("softmax 峰值") is
// rotated as a whole, since stacked Latin letters read worse than sideways hanzi.
bool stacks_upright(const char* text) {
  const auto bytes = text + std::strlen(text);
  const bool non_ascii = std::any_of(text, bytes, [](char ch) { return static_cast<unsigned char>(ch) >= 0x80; });
  const bool latin = std::any_of(text, bytes, [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)); });
  return non_ascii && !latin;
}

// Drops the last UTF-8 character of `text`.
void pop_character(std::string* text) {
  while (!text->empty() && (static_cast<unsigned char>(text->back()) & 0xC0) == 0x80) text->pop_back();
  if (!text->empty()) text->pop_back();
}

// `text` shortened to at most max_width with "...", whole characters only:
// a label in a small plot is cut where the reader sees it is cut, not
// clipped at the panel's edge. "" when not even "..." fits.
std::string elide(const std::string& text, float max_width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= max_width) return text;
  std::string cut = text;
  while (!cut.empty()) {
    pop_character(&cut);
    while (!cut.empty() && cut.back() == ' ') cut.pop_back();
    if (ImGui::CalcTextSize((cut + "...").c_str()).x <= max_width) return cut + "...";
  }
  return ImGui::CalcTextSize("...").x <= max_width ? "..." : "";
}

// The same for text drawn with add_text_vertical: `max_length` along the line
// (stacked characters take a line of height each and are cut without dots).
std::string elide_vertical(const std::string& text, float max_length) {
  if (!stacks_upright(text.c_str())) return elide(text, max_length);
  const int fit = int(max_length / ImGui::GetFontSize());
  std::string cut;
  int count = 0;
  for (const char* p = text.c_str(); *p && count < fit; ++count) {
    const char* start = p++;
    while ((static_cast<unsigned char>(*p) & 0xC0) == 0x80) ++p;
    cut.append(start, p);
  }
  return cut;
}

void add_text_vertical(ImDrawList* draw_list, ImVec2 center, ImU32 color, const char* text) {
  if (stacks_upright(text)) {
    std::vector<std::string> chars;
    for (const char* p = text; *p;) {
      const char* start = p++;
      while ((static_cast<unsigned char>(*p) & 0xC0) == 0x80) ++p;  // UTF-8 continuation bytes
      if (*start != ' ') chars.emplace_back(start, p);
    }
    const float line = ImGui::GetFontSize();
    float y = std::floor(center.y - line * float(chars.size()) * 0.5f);
    for (const std::string& ch : chars) {
      const float w = ImGui::CalcTextSize(ch.c_str()).x;
      draw_list->AddText(ImVec2(std::floor(center.x - w * 0.5f), y), color, ch.c_str());
      y += line;
    }
    return;
  }
  const ImVec2 size = ImGui::CalcTextSize(text);
  const ImVec2 pivot(std::floor(center.x - size.y * 0.5f), std::floor(center.y + size.x * 0.5f));
  // Glyphs are culled against the clip rectangle before the rotation, so the
  // flat text must not be clipped while it is added.
  draw_list->PushClipRectFullScreen();
  const int begin = draw_list->VtxBuffer.Size;
  draw_list->AddText(pivot, color, text);
  draw_list->PopClipRect();
  for (int i = begin; i < draw_list->VtxBuffer.Size; ++i) {
    ImDrawVert& v = draw_list->VtxBuffer[i];
    const float dx = v.pos.x - pivot.x, dy = v.pos.y - pivot.y;
    v.pos = ImVec2(pivot.x + dy, pivot.y - dx);
  }
}

void add_text_centered(ImDrawList* draw_list, ImVec2 center_top, ImU32 color, const char* text) {
  const float width = ImGui::CalcTextSize(text).x;
  draw_list->AddText(ImVec2(std::floor(center_top.x - width * 0.5f), center_top.y), color, text);
}

struct Extent {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool valid() const { return lo <= hi; }
};

}  // namespace

void SetCurrentContext(Context* context) { g_context = context; }
Context* GetCurrentContext() { return g_context; }

void ScrollWindowWithWheel() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.MouseWheel == 0.0f || GetCurrentContext()->wheel_zoom_frame == ImGui::GetFrameCount() ||
      !ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows))
    return;
  ImGuiWindow* self = ImGui::GetCurrentWindow();
  for (ImGuiWindow* w = ImGui::GetCurrentContext()->HoveredWindow; w && w != self; w = w->ParentWindow)
    if (w->ScrollMax.y > 0.0f && !(w->Flags & ImGuiWindowFlags_NoScrollWithMouse)) return;  // ImGui scrolled it
  // ImGui's own step: five lines, at most two thirds of the window.
  const float step = std::floor(std::min(5.0f * ImGui::GetFontSize(), self->InnerRect.GetHeight() * 0.67f));
  ImGui::SetScrollY(std::clamp(ImGui::GetScrollY() - io.MouseWheel * step, 0.0f, ImGui::GetScrollMaxY()));
}

void ShutdownContext(Context& context) {
  for (auto& entry : context.heatmaps) entry.second.destroy();
  context.heatmaps.clear();
  context.renderer.destroy();
}

std::vector<double> NiceTicks(double lo, double hi, int max_ticks, int* decimals) {
  std::vector<double> ticks;
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo)) {
    if (std::isfinite(lo)) ticks.push_back(lo);
    if (decimals) *decimals = 3;
    return ticks;
  }
  const double raw_step = (hi - lo) / double(std::max(max_ticks, 2));
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw_step)));
  const double mantissa = raw_step / magnitude;
  const double nice = mantissa <= 1 ? 1 : mantissa <= 2 ? 2 : mantissa <= 5 ? 5 : 10;
  const double step = nice * magnitude;
  // Integer multiples of the step, so ticks never drift (0.1 + 0.2 != 0.3).
  const double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
  for (double k = first; k <= last; k += 1) ticks.push_back(k * step);
  if (decimals) *decimals = std::max(0, int(-std::floor(std::log10(step) + 1e-9)));
  return ticks;
}

// ---- 2-D plots ---------------------------------------------------------------

bool BeginPlot(const char* title_id, const ImVec2& size_arg, int flags) {
  Context& ctx = *g_context;
  IM_ASSERT(!ctx.in_plot && "EndPlot() missing");
  const ImVec2 size = resolve_size(size_arg);
  ImGui::InvisibleButton(title_id, size);
  if (!ImGui::IsItemVisible()) return false;
  ctx.in_plot = true;
  ctx.hovered = ImGui::IsItemHovered();
  ctx.frame_min = ImGui::GetItemRectMin();
  ctx.frame_max = ImGui::GetItemRectMax();
  ctx.title = visible_label(title_id);
  ctx.x_label.clear();
  ctx.y_label.clear();
  ctx.flags = flags;
  ctx.fixed_limits[0] = ctx.fixed_limits[1] = false;
  ctx.items.clear();
  ctx.next_item_color = 0;
  ctx.x_tick_values.clear();
  ctx.x_tick_labels.clear();
  ctx.x_hover_format = nullptr;
  return true;
}

void SetupXTicks(const std::vector<double>& values, const std::vector<std::string>& labels) {
  g_context->x_tick_values = values;
  g_context->x_tick_labels = labels;
  g_context->x_tick_labels.resize(values.size());
}

void SetupXHoverFormat(std::function<std::string(double)> format) { g_context->x_hover_format = std::move(format); }

ImU32 SeriesColor(int index) {
  const auto& series = colors().series;
  const int count = int(series.size());
  return series[std::size_t(((index % count) + count) % count)];
}
void SetNextItemColor(ImU32 color) { g_context->next_item_color = color; }

void SetupAxes(const char* x_label, const char* y_label) {
  g_context->x_label = x_label ? x_label : "";
  g_context->y_label = y_label ? y_label : "";
}

void SetupAxisLimits(Axis axis, double lo, double hi) {
  g_context->fixed_limits[axis] = true;
  g_context->limits[axis][0] = lo;
  g_context->limits[axis][1] = hi;
}

namespace {
template <typename T>
void add_item(const char* label_id, bool bars, const float* xs, const T* ys, int count, double width) {
  Context& ctx = *g_context;
  PlotItem item;
  item.label = visible_label(label_id);
  item.bars = bars;
  item.width = width;
  item.color = ctx.next_item_color ? ctx.next_item_color : SeriesColor(int(ctx.items.size()));
  ctx.next_item_color = 0;
  for (int i = 0; i < count; ++i) {
    item.xs.push_back(double(xs[i]));
    item.ys.push_back(double(ys[i]));
  }
  ctx.items.push_back(std::move(item));
}
}  // namespace

void PlotBars(const char* label_id, const float* lefts, const float* heights, int count, double width) {
  add_item(label_id, true, lefts, heights, count, width);
}
void PlotBars(const char* label_id, const float* lefts, const int* heights, int count, double width) {
  add_item(label_id, true, lefts, heights, count, width);
}
void PlotLine(const char* label_id, const float* xs, const float* ys, int count) {
  add_item(label_id, false, xs, ys, count, 0.0);
}
void PlotScatter(const char* label_id, const float* xs, const float* ys, int count) {
  add_item(label_id, false, xs, ys, count, 0.0);
  g_context->items.back().markers = true;
}
void PlotVLines(const char* label_id, const float* xs, int count) {
  add_item(label_id, false, xs, xs, count, 0.0);
  g_context->items.back().vlines = true;
}

// ---- EndPlot's passes --------------------------------------------------------
// EndPlot fits the limits, lays out the plot, then draws back to front:
// background and grid, items, frame and labels, legend, hover readout.

namespace {

// What the drawing passes share: the plot rectangle inside the widget, the
// limits it shows and the ticks along both axes.
struct PlotFrame {
  ImDrawList* draw_list = nullptr;
  float font = 0, pad = 0;
  ImU32 text_color = 0;
  ImVec2 frame_min, frame_max;  // the whole widget: title and axis labels included
  ImVec2 plot_min, plot_max;    // the data area
  double limits[2][2] = {};     // [Axis][lo, hi]
  std::vector<double> x_ticks, y_ticks;
  std::vector<std::string> x_tick_text, y_tick_text;
  int x_decimals = 0;           // of the x ticks; the hover readout shows two more
  struct LegendEntry {
    const PlotItem* item;
    std::string label;  // elided to the row when one entry is wider than the plot
    ImVec2 pos;         // top left of its swatch
  };
  std::vector<LegendEntry> legend;  // outside the data area, so it never covers a curve

  float width() const { return plot_max.x - plot_min.x; }
  float height() const { return plot_max.y - plot_min.y; }
  float to_px(double x) const {
    return float(plot_min.x + (x - limits[0][0]) / (limits[0][1] - limits[0][0]) * width());
  }
  float to_py(double y) const {
    return float(plot_max.y - (y - limits[1][0]) / (limits[1][1] - limits[1][0]) * height());
  }
};

float axis_tick_length(float font) { return std::floor(font * 0.3f); }

// The range every item covers: bars their whole width and down to y = 0,
// reference lines only x. True when any item is bars.
bool item_extents(const std::vector<PlotItem>& items, Extent* x_extent, Extent* y_extent) {
  bool has_bars = false;
  for (const PlotItem& item : items) {
    for (std::size_t i = 0; i < item.xs.size(); ++i) {
      x_extent->add(item.xs[i]);
      x_extent->add(item.xs[i] + item.width);
      if (!item.vlines) y_extent->add(item.ys[i]);
    }
    if (item.bars) {
      y_extent->add(0.0);
      has_bars = true;
    }
  }
  return has_bars;
}

// Limits: fixed, or fitted to every item with matplotlib-like margins
// (bars stand on y = 0, which stays the bottom edge).
void fit_axis_limits(const Context& ctx, double limits[2][2]) {
  Extent x_extent, y_extent;
  const bool has_bars = item_extents(ctx.items, &x_extent, &y_extent);
  const Extent* extents[2] = {&x_extent, &y_extent};
  for (int axis = 0; axis < 2; ++axis) {
    if (ctx.fixed_limits[axis]) {
      limits[axis][0] = ctx.limits[axis][0];
      limits[axis][1] = ctx.limits[axis][1];
      continue;
    }
    double lo = extents[axis]->valid() ? extents[axis]->lo : 0.0;
    double hi = extents[axis]->valid() ? extents[axis]->hi : 1.0;
    if (hi <= lo) {
      lo -= 0.5;
      hi += 0.5;
    }
    const double margin = (hi - lo) * (axis == 0 ? 0.03 : 0.05);
    limits[axis][0] = (axis == 1 && has_bars && lo >= 0) ? lo : lo - margin;
    limits[axis][1] = hi + margin;
  }
}

// x ticks need the plot width, so they are chosen after the rectangle:
// nice 1-2-5 ticks, or the categorical ones SetupXTicks gave.
void choose_x_ticks(const Context& ctx, PlotFrame* f) {
  if (ctx.x_tick_values.empty()) {
    f->x_ticks = NiceTicks(f->limits[0][0], f->limits[0][1], std::max(2, int(f->width() / (f->font * 5.0f))),
                           &f->x_decimals);
    f->x_tick_text = tick_labels(f->x_ticks, f->x_decimals);
    return;
  }
  // Every k-th label, k chosen so the widest label fits between two shown ticks.
  const float widest_label = widest(ctx.x_tick_labels);
  const double span = f->limits[0][1] - f->limits[0][0];
  const double per_tick = span > 0 ? f->width() / span : f->width();  // pixels per unit of x
  const std::size_t step = std::size_t(std::max(1.0, std::ceil((widest_label + f->font) / per_tick)));
  for (std::size_t i = 0; i < ctx.x_tick_values.size(); i += step) {
    f->x_ticks.push_back(ctx.x_tick_values[i]);
    f->x_tick_text.push_back(ctx.x_tick_labels[i]);
  }
}

// The legend goes outside the data area, where it costs the curves least:
// in rows above it (right-aligned), or, for a wide and low plot, in a
// column right of it. It takes the space from the data area here (f->plot_min
// / plot_max shrink) and its entries get their final places. A plot too small
// for both its curves and a legend has none: a legend that leaves no room for
// the curves helps nobody.
void lay_out_legend(const Context& ctx, PlotFrame* f) {
  f->legend.clear();
  if (ctx.flags & PlotFlags_NoLegend) return;
  struct Entry {
    const PlotItem* item;
    std::string label;
    float width;
  };
  const float font = f->font, pad = f->pad, swatch = std::floor(font * 0.8f), gap = font, row_h = font + 2;
  std::vector<Entry> entries;
  for (const PlotItem& item : ctx.items) {
    if (item.label.empty()) continue;
    const std::string label = elide(item.label, f->width() - swatch - pad);
    entries.push_back({&item, label, swatch + pad + ImGui::CalcTextSize(label.c_str()).x});
  }
  if (entries.empty()) return;
  // Rows: entries flow left to right and wrap at the data area's width.
  std::vector<std::vector<std::size_t>> rows(1);
  float x = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (x > 0 && x + gap + entries[i].width > f->width()) {
      rows.emplace_back();
      x = 0;
    }
    x += (x > 0 ? gap : 0.0f) + entries[i].width;
    rows.back().push_back(i);
  }
  const float rows_h = row_h * float(rows.size()) + std::floor(pad * 0.5f);
  // A column: one entry per line, right of the data area.
  float column_w = 0;
  for (const Entry& e : entries) column_w = std::max(column_w, e.width);
  column_w += gap;
  const float column_h = row_h * float(entries.size());
  const float area_rows = f->width() * (f->height() - rows_h);
  const bool column_fits = column_h <= f->height() && f->width() - column_w >= std::max(font * 6, f->width() * 0.5f);
  const bool rows_fit = f->height() - rows_h >= std::max(font * 3.0f, f->height() * 0.5f);
  if (column_fits && (!rows_fit || (f->width() - column_w) * f->height() > area_rows)) {
    f->plot_max.x -= column_w;
    for (std::size_t i = 0; i < entries.size(); ++i)
      f->legend.push_back({entries[i].item, entries[i].label,
                           ImVec2(f->plot_max.x + gap, f->plot_min.y + row_h * float(i))});
    return;
  }
  if (!rows_fit) return;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    float used = 0;
    for (std::size_t i : rows[r]) used += (used > 0 ? gap : 0.0f) + entries[i].width;
    float x_at = f->plot_max.x - used;
    for (std::size_t i : rows[r]) {
      f->legend.push_back({entries[i].item, entries[i].label, ImVec2(std::floor(x_at), f->plot_min.y + row_h * float(r))});
      x_at += entries[i].width + gap;
    }
  }
  f->plot_min.y += rows_h;
}

// Margins from the tick labels, then the plot rectangle and the ticks.
// False when the rectangle is too small to draw anything in.
bool lay_out_plot(const Context& ctx, PlotFrame* f) {
  const float font = f->font, pad = f->pad;
  f->frame_min = ctx.frame_min;
  f->frame_max = ctx.frame_max;
  const ImVec2 frame_min = f->frame_min, frame_max = f->frame_max;
  const float title_h = ctx.title.empty() ? 0.0f : font + pad;
  const float x_label_h = ctx.x_label.empty() ? 0.0f : font + pad;
  const float y_label_w = ctx.y_label.empty() ? 0.0f : font + pad;
  // The y tick labels' width sets the left margin, so they are chosen for a guessed height.
  const float plot_h_guess = (frame_max.y - frame_min.y) - title_h - x_label_h - font - 2 * pad;
  int y_decimals = 0;
  f->y_ticks = NiceTicks(f->limits[1][0], f->limits[1][1], std::max(2, int(plot_h_guess / (font * 2.5f))), &y_decimals);
  f->y_tick_text = tick_labels(f->y_ticks, y_decimals);
  f->plot_min = ImVec2(std::floor(frame_min.x + y_label_w + widest(f->y_tick_text) + 2 * pad),
                       std::floor(frame_min.y + title_h + pad));
  f->plot_max = ImVec2(std::floor(frame_max.x - font), std::floor(frame_max.y - x_label_h - font - pad));
  if (f->width() < 8 || f->height() < 8) return false;
  lay_out_legend(ctx, f);
  choose_x_ticks(ctx, f);
  return true;
}

void draw_background_and_grid(const PlotFrame& f) {
  f.draw_list->AddRectFilled(f.plot_min, f.plot_max, colors().plot_bg);
  for (double t : f.y_ticks)
    f.draw_list->AddLine(ImVec2(f.plot_min.x, f.to_py(t)), ImVec2(f.plot_max.x, f.to_py(t)), colors().grid);
  for (double t : f.x_ticks)
    f.draw_list->AddLine(ImVec2(f.to_px(t), f.plot_min.y), ImVec2(f.to_px(t), f.plot_max.y), colors().grid);
}

void draw_bars(const PlotItem& item, const PlotFrame& f) {
  // Overlaid series stay readable at half opacity (matplotlib alpha=0.5).
  const ImU32 fill = (item.color & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 128);
  for (std::size_t i = 0; i < item.xs.size(); ++i) {
    if (item.ys[i] == 0) continue;
    f.draw_list->AddRectFilled(ImVec2(f.to_px(item.xs[i]), f.to_py(item.ys[i])),
                               ImVec2(f.to_px(item.xs[i] + item.width), f.to_py(0.0)), fill);
  }
}

void draw_vlines(const PlotItem& item, const PlotFrame& f) {
  // Dashed, so a reference line never reads as data.
  const float dash = std::floor(f.font * 0.4f);
  for (double x : item.xs) {
    const float px = std::floor(f.to_px(x)) + 0.5f;
    for (float y = f.plot_min.y; y < f.plot_max.y; y += 2 * dash)
      f.draw_list->AddLine(ImVec2(px, y), ImVec2(px, std::min(y + dash, f.plot_max.y)), item.color, 1.5f);
  }
}

void draw_markers(const PlotItem& item, const PlotFrame& f) {
  for (std::size_t i = 0; i < item.xs.size(); ++i)
    f.draw_list->AddCircleFilled(ImVec2(f.to_px(item.xs[i]), f.to_py(item.ys[i])), std::max(2.5f, f.font * 0.25f),
                                 item.color);
}

void draw_line(const PlotItem& item, const PlotFrame& f) {
  std::vector<ImVec2> points;
  for (std::size_t i = 0; i < item.xs.size(); ++i) points.emplace_back(f.to_px(item.xs[i]), f.to_py(item.ys[i]));
  f.draw_list->AddPolyline(points.data(), int(points.size()), item.color, 0, std::max(1.5f, f.font / 8));
}

// Items in the order they were recorded, clipped to the plot rectangle.
void draw_items(const std::vector<PlotItem>& items, const PlotFrame& f) {
  f.draw_list->PushClipRect(f.plot_min, f.plot_max, true);
  for (const PlotItem& item : items) {
    if (item.bars) draw_bars(item, f);
    else if (item.vlines) draw_vlines(item, f);
    else if (item.markers) draw_markers(item, f);
    else draw_line(item, f);
  }
  f.draw_list->PopClipRect();
}

void draw_frame_and_ticks(const PlotFrame& f) {
  ImDrawList* draw_list = f.draw_list;
  draw_list->AddRect(ImVec2(f.plot_min.x - 1, f.plot_min.y - 1), ImVec2(f.plot_max.x + 1, f.plot_max.y + 1),
                     colors().axis);
  const float tick_len = axis_tick_length(f.font);
  for (std::size_t i = 0; i < f.y_ticks.size(); ++i) {
    const float y = std::floor(f.to_py(f.y_ticks[i])) + 0.5f;
    draw_list->AddLine(ImVec2(f.plot_min.x - 1 - tick_len, y), ImVec2(f.plot_min.x - 1, y), colors().axis);
    const float w = ImGui::CalcTextSize(f.y_tick_text[i].c_str()).x;
    draw_list->AddText(ImVec2(f.plot_min.x - 1 - tick_len - f.pad * 0.5f - w, y - f.font * 0.5f), f.text_color,
                       f.y_tick_text[i].c_str());
  }
  for (std::size_t i = 0; i < f.x_ticks.size(); ++i) {
    const float x = std::floor(f.to_px(f.x_ticks[i])) + 0.5f;
    draw_list->AddLine(ImVec2(x, f.plot_max.y + 1), ImVec2(x, f.plot_max.y + 1 + tick_len), colors().axis);
    add_text_centered(draw_list, ImVec2(x, f.plot_max.y + 1 + tick_len), f.text_color, f.x_tick_text[i].c_str());
  }
}

// The title above the plot, the x label under the tick labels, the y label turned upright on the left.
// Each is shortened to fit the widget (a small plot cuts "std of scores" to
// "std of..." rather than across the panel's edge) and centred on the data
// area as far as the widget allows.
void draw_title_and_axis_labels(const Context& ctx, const PlotFrame& f) {
  const float center_x = (f.plot_min.x + f.plot_max.x) * 0.5f;
  const float frame_w = f.frame_max.x - f.frame_min.x;
  const auto centred = [&](const std::string& label, float y) {
    const std::string text = elide(label, frame_w);
    const float w = ImGui::CalcTextSize(text.c_str()).x;
    const float x = std::clamp(std::floor(center_x - w * 0.5f), f.frame_min.x, std::max(f.frame_min.x, f.frame_max.x - w));
    f.draw_list->AddText(ImVec2(x, y), f.text_color, text.c_str());
  };
  if (!ctx.title.empty()) centred(ctx.title, f.frame_min.y);
  if (!ctx.x_label.empty()) centred(ctx.x_label, f.plot_max.y + axis_tick_length(f.font) + f.font + f.pad);
  if (!ctx.y_label.empty())
    add_text_vertical(f.draw_list, ImVec2(f.frame_min.x + f.font * 0.5f, (f.plot_min.y + f.plot_max.y) * 0.5f),
                      f.text_color, elide_vertical(ctx.y_label, f.height() + f.pad).c_str());
}

// The legend where lay_out_legend put it: a swatch and a label per series;
// "##..." items stay out.
void draw_legend(const PlotFrame& f) {
  const float swatch = std::floor(f.font * 0.8f), inset = std::floor((f.font - swatch) * 0.5f);
  for (const PlotFrame::LegendEntry& entry : f.legend) {
    f.draw_list->AddRectFilled(ImVec2(entry.pos.x, entry.pos.y + inset),
                               ImVec2(entry.pos.x + swatch, entry.pos.y + inset + swatch), entry.item->color);
    f.draw_list->AddText(ImVec2(entry.pos.x + swatch + f.pad, entry.pos.y), f.text_color, entry.label.c_str());
  }
}

// One series' line in the hover readout: the bar that holds x, or the point nearest to x.
void series_readout(const PlotItem& item, double x, int decimals) {
  for (std::size_t i = 0; i < item.xs.size(); ++i) {
    const bool last = i + 1 == item.xs.size();
    const bool inside = item.bars ? (x >= item.xs[i] && (x < item.xs[i] + item.width || (last && x <= item.xs[i] + item.width)))
                                  : (last || std::fabs(item.xs[i] - x) <= std::fabs(item.xs[i + 1] - x));
    if (!inside) continue;
    if (item.bars) {
      ImGui::TextColored(ImColor(item.color), "%s: %g  [%s, %s)", item.label.c_str(), item.ys[i],
                         format_number(item.xs[i], decimals).c_str(),
                         format_number(item.xs[i] + item.width, decimals).c_str());
    } else {
      ImGui::TextColored(ImColor(item.color), "%s: %g", item.label.c_str(), item.ys[i]);
    }
    return;
  }
}

// Hover readout: a guide line and what each series holds at that x.
void hover_readout(const Context& ctx, const PlotFrame& f) {
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (!(ctx.hovered && mouse.x >= f.plot_min.x && mouse.x < f.plot_max.x && mouse.y >= f.plot_min.y &&
        mouse.y < f.plot_max.y))
    return;
  f.draw_list->AddLine(ImVec2(mouse.x, f.plot_min.y), ImVec2(mouse.x, f.plot_max.y), colors().guide);
  const double x = f.limits[0][0] + double(mouse.x - f.plot_min.x) / f.width() * (f.limits[0][1] - f.limits[0][0]);
  ImGui::BeginTooltip();
  if (ctx.x_hover_format)
    ImGui::TextUnformatted(ctx.x_hover_format(x).c_str());
  else
    ImGui::Text("%s = %s", ctx.x_label.empty() ? "x" : ctx.x_label.c_str(), format_number(x, f.x_decimals + 2).c_str());
  for (const PlotItem& item : ctx.items)
    if (!item.vlines && !item.label.empty()) series_readout(item, x, f.x_decimals + 2);
  ImGui::EndTooltip();
}

}  // namespace

void EndPlot() {
  Context& ctx = *g_context;
  IM_ASSERT(ctx.in_plot && "EndPlot() without a successful BeginPlot()");
  ctx.in_plot = false;
  PlotFrame frame;
  frame.draw_list = ImGui::GetWindowDrawList();
  frame.font = ImGui::GetFontSize();
  frame.pad = std::floor(frame.font * 0.4f);
  frame.text_color = ImGui::GetColorU32(ImGuiCol_Text);

  fit_axis_limits(ctx, frame.limits);
  if (!lay_out_plot(ctx, &frame)) return;
  draw_background_and_grid(frame);
  draw_items(ctx.items, frame);
  draw_frame_and_ticks(frame);
  draw_title_and_axis_labels(ctx, frame);
  draw_legend(frame);
  hover_readout(ctx, frame);
}

// ---- heatmaps ----------------------------------------------------------------

void DrawColorbar(ImDrawList* draw_list, const ImVec2& min, const ImVec2& max, gfx::Colormap colormap, float lo,
                  float hi) {
  const float scale = ui::framebuffer_scale();
  const float font = ImGui::GetFontSize();
  const ImU32 text_color = ImGui::GetColorU32(ImGuiCol_Text);
  // One strip per framebuffer pixel row, coloured by the same table the GPU uses.
  const int rows_px = std::max(1, int(std::lround((max.y - min.y) * scale)));
  for (int i = 0; i < rows_px; ++i) {
    const float t = 1.0f - (float(i) + 0.5f) / float(rows_px);
    const gfx::Rgba8 c = gfx::colormap_color(colormap, t);
    draw_list->AddRectFilled(ImVec2(min.x, min.y + float(i) / scale), ImVec2(max.x, min.y + float(i + 1) / scale),
                             IM_COL32(c.r, c.g, c.b, 255));
  }
  draw_list->AddRect(ImVec2(min.x - 1, min.y - 1), ImVec2(max.x + 1, max.y + 1), colors().axis);
  int decimals = 0;
  const std::vector<double> ticks = NiceTicks(lo, hi, colorbar_max_ticks(max.y - min.y, font), &decimals);
  const float tick_len = colorbar_tick_length(font);
  for (double v : ticks) {
    const float y = std::floor(max.y - gfx::normalise_value(float(v), lo, hi) * (max.y - min.y)) + 0.5f;
    draw_list->AddLine(ImVec2(max.x + 1, y), ImVec2(max.x + 1 + tick_len, y), colors().axis);
    draw_list->AddText(ImVec2(max.x + colorbar_label_offset(font), std::floor(y - font * 0.5f)), text_color,
                       format_number(v, decimals).c_str());
  }
}

void DrawColorbarBelow(ImDrawList* draw_list, const ImVec2& min, const ImVec2& max, gfx::Colormap colormap, float lo,
                       float hi) {
  const float scale = ui::framebuffer_scale();
  const float font = ImGui::GetFontSize();
  const ImU32 text_color = ImGui::GetColorU32(ImGuiCol_Text);
  // One strip per framebuffer pixel column, lo at the left.
  const int columns_px = std::max(1, int(std::lround((max.x - min.x) * scale)));
  for (int i = 0; i < columns_px; ++i) {
    const gfx::Rgba8 c = gfx::colormap_color(colormap, (float(i) + 0.5f) / float(columns_px));
    draw_list->AddRectFilled(ImVec2(min.x + float(i) / scale, min.y), ImVec2(min.x + float(i + 1) / scale, max.y),
                             IM_COL32(c.r, c.g, c.b, 255));
  }
  draw_list->AddRect(ImVec2(min.x - 1, min.y - 1), ImVec2(max.x + 1, max.y + 1), colors().axis);
  int decimals = 0;
  // Labels side by side need about four lines of text each.
  const std::vector<double> ticks = NiceTicks(lo, hi, std::max(2, int((max.x - min.x) / (font * 4.0f))), &decimals);
  const float tick_len = colorbar_tick_length(font);
  for (double v : ticks) {
    const float x = std::floor(min.x + gfx::normalise_value(float(v), lo, hi) * (max.x - min.x)) + 0.5f;
    draw_list->AddLine(ImVec2(x, max.y + 1), ImVec2(x, max.y + 1 + tick_len), colors().axis);
    const std::string label = format_number(v, decimals);
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    draw_list->AddText(ImVec2(std::clamp(x - w * 0.5f, min.x - w * 0.5f, max.x - w * 0.5f), max.y + colorbar_label_offset(font)),
                       text_color, label.c_str());
  }
}

namespace {

// The window of cells shown: at most `fit` cells (one framebuffer pixel each
// at least), about count / zoom when zoomed, clamped inside the matrix.
void visible_window(int count, float zoom, float* first, int fit, int* start, int* shown) {
  int n = std::max(1, int(std::ceil(float(count) / std::max(zoom, 1.0f))));
  n = std::min({n, count, std::max(fit, 1)});
  const float max_first = float(count - n);
  if (first) *first = std::clamp(*first, 0.0f, max_first);
  *start = first ? int(std::floor(*first)) : 0;
  *shown = n;
}

// ---- PlotHeatmap's passes ----------------------------------------------------
// PlotHeatmap measures the margins, chooses the window of cells and where it
// lands, then draws cells, labels, colorbar and highlight, and last handles
// the mouse (hover readout, wheel zoom, drag pan).

const std::vector<std::string>& labels_or_none(const std::vector<std::string>* labels) {
  static const std::vector<std::string> no_labels;
  return labels ? *labels : no_labels;
}

// A label counts as valid unless the spec marks it not (a pad): invalid ones are greyed.
bool label_valid(const std::vector<bool>* valid, int i) {
  return !valid || i >= int(valid->size()) || (*valid)[std::size_t(i)];
}

// The spec with the style every pass reads, looked up once.
struct HeatmapWidget {
  explicit HeatmapWidget(const HeatmapSpec& heatmap_spec)
      : spec(heatmap_spec),
        draw_list(ImGui::GetWindowDrawList()),
        scale(ui::framebuffer_scale()),
        font(ImGui::GetFontSize()),
        pad(std::floor(font * 0.4f)),
        text_color(ImGui::GetColorU32(ImGuiCol_Text)),
        dim_color(ImGui::GetColorU32(ImGuiCol_TextDisabled)),
        row_labels(labels_or_none(spec.row_labels)),
        col_labels(labels_or_none(spec.col_labels)),
        has_row_axis(spec.row_axis && *spec.row_axis),
        has_col_axis(spec.col_axis && *spec.col_axis) {}

  const HeatmapSpec& spec;
  ImDrawList* draw_list;
  float scale;  // framebuffer pixels per ImGui unit
  float font, pad;
  ImU32 text_color, dim_color;  // dim: labels of pads
  const std::vector<std::string>& row_labels;
  const std::vector<std::string>& col_labels;
  bool has_row_axis, has_col_axis;
};

// Margins around the cells: axis title + labels on the left and below,
// the colorbar and its tick labels on the right.
struct HeatmapMargins {
  float row_label_w = 0, col_label_w = 0;  // widest query and key label
  float left = 0, right = 0, top = 0;
  float axis_h = 0;                        // the key axis title under the key labels
  float bar_gap = 0, bar_w = 0;            // the colorbar's distance from the cells, its width
  // Upright on a phone the colorbar lies under the key axis instead, so the
  // cells get the whole width: its strip, ticks and labels take bar_below_h.
  bool bar_below = false;
  float bar_below_h = 0;
};

// Where the cells land: the window of the matrix shown, the cell size and the
// cell rectangle, in framebuffer pixels and in ImGui units.
struct HeatmapGeometry {
  HeatmapMargins margins;
  int row0 = 0, col0 = 0, rows = 0, cols = 0;  // the window of cells shown
  int cell_px = 0;                             // a cell's side in framebuffer pixels
  float cell = 0;                              // the same in ImGui units
  bool upright_cols = false;                   // key labels turned 90 degrees
  int x_px = 0, y_px = 0, w_px = 0, h_px = 0;  // the cells, framebuffer pixels
  ImVec2 cell_min, cell_max;                   // the same in ImGui units
  ImVec2 bar_min, bar_max;                     // the colorbar
};

float max_row_label_width(const HeatmapWidget& hm, ImVec2 size) {
  return std::max(hm.font * 3, std::floor(size.x * 0.3f));
}

HeatmapMargins heatmap_margins(const HeatmapWidget& hm, ImVec2 size) {
  const float font = hm.font, pad = hm.pad;
  HeatmapMargins m;
  // Long tokens are shortened (draw_token_labels) rather than squeezing the cells.
  m.row_label_w = std::min(widest(hm.row_labels), max_row_label_width(hm, size));
  m.col_label_w = widest(hm.col_labels);
  m.left = (hm.has_row_axis ? font + pad : 0.0f) + m.row_label_w + pad;
  // Colorbar labels: the ticks DrawColorbar will pick for about this height,
  // and at least "0.0000" wide so neighbouring heatmaps get equal cells. A
  // small heatmap keeps its colorbar, slimmer and with shorter labels: its
  // width is reserved here, before the cells get the rest.
  const bool slim = size.x < font * 20;
  int tick_decimals = 0;
  const std::vector<double> ticks =
      NiceTicks(hm.spec.lo, hm.spec.hi, colorbar_max_ticks(size.y - 3 * font, font), &tick_decimals);
  // Stacked on a phone, each heatmap has a row of its own: no room kept for
  // a neighbour's wider labels, every pixel to the cells.
  const float tick_label_w = std::max(widest(tick_labels(ticks, tick_decimals)),
                                      ui::stacked_layout() ? 0.0f : ImGui::CalcTextSize(slim ? "0.00" : "0.0000").x);
  m.bar_gap = std::floor(font * (slim ? 0.4f : 0.8f));
  m.bar_w = slim ? std::floor(font * 0.6f) : font;
  m.bar_below = hm.spec.colorbar && ui::upright_phone();
  if (m.bar_below) {
    m.bar_w = std::floor(font * 0.6f);
    m.bar_below_h = m.bar_w + colorbar_label_offset(font) + font + pad;
  }
  m.right = hm.spec.colorbar && !m.bar_below ? m.bar_gap + m.bar_w + colorbar_label_offset(font) + tick_label_w + pad : pad;
  m.top = std::floor(font * 0.5f);  // half a label: the top colorbar tick is centred on the edge
  m.axis_h = hm.has_col_axis ? pad + font : 0.0f;
  return m;
}

// Which cells are shown: all of them, or the zoomed window; too many cells
// for the pixels available are cut to one framebuffer pixel per cell.
// False when not even that fits.
bool choose_cell_window(const HeatmapWidget& hm, ImVec2 size, HeatmapGeometry* g) {
  const HeatmapSpec& spec = hm.spec;
  const HeatmapMargins& m = g->margins;
  float bottom = hm.pad + hm.font + m.axis_h + hm.pad + m.bar_below_h;
  for (int pass = 0; pass < 2; ++pass) {
    const float avail_w = (size.x - m.left - m.right) * hm.scale, avail_h = (size.y - m.top - bottom) * hm.scale;
    const float zoom = spec.zoom ? spec.zoom->zoom : 1.0f;
    // Square matrices (queries x keys) keep square windows: the diagonal stays the diagonal.
    const int fit_h = spec.rows == spec.cols ? int(std::min(avail_w, avail_h)) : int(avail_h);
    const int fit_w = spec.rows == spec.cols ? fit_h : int(avail_w);
    visible_window(spec.rows, zoom, spec.zoom ? &spec.zoom->row0 : nullptr, fit_h, &g->row0, &g->rows);
    visible_window(spec.cols, zoom, spec.zoom ? &spec.zoom->col0 : nullptr, fit_w, &g->col0, &g->cols);
    g->cell_px = int(std::floor(std::min(avail_w / float(g->cols), avail_h / float(g->rows))));
    // Key labels too wide for their cells are turned upright.
    if (pass == 0) {
      g->upright_cols = m.col_label_w + hm.pad > float(g->cell_px) / hm.scale;
      if (!g->upright_cols) break;
      bottom = hm.pad + std::min(m.col_label_w, hm.font * 8.0f) + m.axis_h + hm.pad + m.bar_below_h;
    }
  }
  return g->cell_px >= 1;
}

// Cells snap to whole framebuffer pixels, and every cell is cell_px square,
// so layout rectangles and the drawn texture agree exactly.
void place_cells(const HeatmapWidget& hm, ImVec2 size, ImVec2 frame_min, HeatmapGeometry* g) {
  const HeatmapMargins& m = g->margins;
  const float scale = hm.scale;
  g->w_px = g->cell_px * g->cols;
  g->h_px = g->cell_px * g->rows;
  const float w = float(g->w_px) / scale, h = float(g->h_px) / scale;
  const float spare_x = std::max(0.0f, size.x - (m.left + w + m.right));
  g->x_px = int(std::lround((frame_min.x + spare_x * 0.5f + m.left) * scale));
  g->y_px = int(std::lround((frame_min.y + m.top) * scale));  // top-aligned under the title
  g->cell_min = ImVec2(float(g->x_px) / scale, float(g->y_px) / scale);
  g->cell_max = ImVec2(g->cell_min.x + w, g->cell_min.y + h);
  g->cell = float(g->cell_px) / scale;
  g->bar_min = ImVec2(g->cell_max.x + m.bar_gap, g->cell_min.y);
  g->bar_max = ImVec2(g->cell_max.x + m.bar_gap + m.bar_w, g->cell_max.y);
  if (m.bar_below) {  // under the key labels and the axis title, as wide as the cells
    const float labels = hm.pad + (g->upright_cols ? std::min(m.col_label_w, hm.font * 8.0f) : hm.font) + m.axis_h + hm.pad;
    g->bar_min = ImVec2(g->cell_min.x, g->cell_max.y + labels);
    g->bar_max = ImVec2(g->cell_max.x, g->bar_min.y + m.bar_w);
  }
}

// The window's values, row-major (the whole matrix when nothing is cut);
// `window` holds the copy when there is one.
const float* window_values(const HeatmapSpec& spec, const HeatmapGeometry& g, std::vector<float>* window) {
  if (g.rows == spec.rows && g.cols == spec.cols) return spec.values;
  window->resize(std::size_t(g.rows) * std::size_t(g.cols));
  for (int r = 0; r < g.rows; ++r)
    std::copy_n(spec.values + std::size_t(g.row0 + r) * std::size_t(spec.cols) + std::size_t(g.col0), g.cols,
                window->begin() + std::ptrdiff_t(r) * g.cols);
  return window->data();
}

// The cells are one texture per widget (kept in the context under its id),
// rendered at exactly the cells' framebuffer size.
void draw_cells(Context& ctx, ImGuiID id, const HeatmapWidget& hm, const HeatmapGeometry& g) {
  gfx::Heatmap& heatmap = ctx.heatmaps[id];
  // The window of a named matrix is named by the matrix and the window.
  uint64_t generation = 0;
  if (hm.spec.generation) {
    generation = hm.spec.generation;
    for (const int v : {g.row0, g.col0, g.rows, g.cols}) generation = (generation ^ uint64_t(uint32_t(v))) * 1099511628211ull;
    generation |= 1;  // never 0
  }
  if (!generation || generation != heatmap.generation() || g.rows != heatmap.rows() || g.cols != heatmap.cols()) {
    std::vector<float> window;
    heatmap.set_values(window_values(hm.spec, g, &window), g.rows, g.cols, generation);
  }
  heatmap.set_range(hm.spec.lo, hm.spec.hi);
  heatmap.set_colormap(hm.spec.colormap);
  // The GL state the frame's heatmaps put back, asked once per frame: nothing
  // else draws with GL while the frame is built.
  if (ctx.gl_state_frame != ImGui::GetFrameCount()) {
    ctx.gl_state.save();
    ctx.gl_state_frame = ImGui::GetFrameCount();
  }
  if (heatmap.render(ctx.renderer, g.w_px, g.h_px, ctx.gl_state)) ++ctx.textures_drawn;
  if (heatmap.texture()) {
    hm.draw_list->AddImage(ImTextureID(intptr_t(heatmap.texture())), g.cell_min, g.cell_max);
  } else {
    hm.draw_list->AddText(g.cell_min, colors().error, ctx.renderer_error.c_str());
  }
  hm.draw_list->AddRect(ImVec2(g.cell_min.x - 1, g.cell_min.y - 1), ImVec2(g.cell_max.x + 1, g.cell_max.y + 1),
                        colors().axis);
}

// Token labels: queries down the left, keys along the bottom. When cells
// are smaller than a line of text, only every stride-th label is drawn.
void draw_token_labels(const HeatmapWidget& hm, const HeatmapGeometry& g) {
  const float font = hm.font, pad = hm.pad;
  const int stride = std::max(1, int(std::ceil(font / g.cell)));
  for (int r = 0; r < g.rows && g.row0 + r < int(hm.row_labels.size()); r += stride) {
    const std::string label = elide(hm.row_labels[std::size_t(g.row0 + r)], g.margins.row_label_w);
    const char* text = label.c_str();
    const float cy = g.cell_min.y + (float(r) + 0.5f) * g.cell;
    hm.draw_list->AddText(ImVec2(g.cell_min.x - pad - ImGui::CalcTextSize(text).x, std::floor(cy - font * 0.5f)),
                          label_valid(hm.spec.row_label_valid, g.row0 + r) ? hm.text_color : hm.dim_color, text);
  }
  for (int c = 0; c < g.cols && g.col0 + c < int(hm.col_labels.size()); c += g.upright_cols ? stride : 1) {
    const char* text = hm.col_labels[std::size_t(g.col0 + c)].c_str();
    const ImU32 color = label_valid(hm.spec.col_label_valid, g.col0 + c) ? hm.text_color : hm.dim_color;
    const float cx = g.cell_min.x + (float(c) + 0.5f) * g.cell;
    if (g.upright_cols) {
      // As long as the margin below the cells (choose_cell_window), no longer.
      const std::string label = elide_vertical(text, font * 8.0f);
      const float tw = std::min(ImGui::CalcTextSize(label.c_str()).x, font * 8.0f);
      add_text_vertical(hm.draw_list, ImVec2(cx, g.cell_max.y + pad + tw * 0.5f), color, label.c_str());
    } else {
      add_text_centered(hm.draw_list, ImVec2(cx, g.cell_max.y + pad), color, text);
    }
  }
}

// The query axis title upright left of the query labels, the key axis title under the key labels.
void draw_axis_titles(const HeatmapWidget& hm, const HeatmapGeometry& g) {
  const float font = hm.font, pad = hm.pad;
  const HeatmapMargins& m = g.margins;
  // Both titles are cut to the cells' side they belong to (an upright
  // "query" longer than a short heatmap would run into the panel's title).
  if (hm.has_row_axis)
    add_text_vertical(hm.draw_list,
                      ImVec2(g.cell_min.x - pad - m.row_label_w - pad - font * 0.5f,
                             (g.cell_min.y + g.cell_max.y) * 0.5f),
                      hm.text_color, elide_vertical(hm.spec.row_axis, g.cell_max.y - g.cell_min.y + 2 * pad).c_str());
  if (hm.has_col_axis)
    add_text_centered(hm.draw_list,
                      ImVec2((g.cell_min.x + g.cell_max.x) * 0.5f,
                             g.cell_max.y + pad + (g.upright_cols ? std::min(m.col_label_w, font * 8.0f) : font) + pad),
                      hm.text_color,
                      elide(hm.spec.col_axis, g.cell_max.x - g.cell_min.x + m.row_label_w + 2 * pad).c_str());
}

// The selected query: an outline around its row when cells are big enough
// for it to stay off their centres, and always a marker left of the row.
void draw_selected_row(const HeatmapWidget& hm, const HeatmapGeometry& g) {
  const int row = hm.spec.highlight_row;
  if (row < g.row0 || row >= g.row0 + g.rows) return;
  const float y0 = g.cell_min.y + float(row - g.row0) * g.cell;
  const float cell = g.cell;
  const ImU32 blue = colors().selection;
  if (g.cell_px >= 8)
    hm.draw_list->AddRect(ImVec2(g.cell_min.x - 2, y0 - 1), ImVec2(g.cell_max.x + 2, y0 + cell + 1), blue, 0, 0, 2.0f);
  hm.draw_list->AddRectFilled(ImVec2(g.cell_min.x - 5, y0), ImVec2(g.cell_min.x - 2, y0 + std::max(cell, 2.0f)), blue);
}

// Marked cells (HeatmapSpec::outlined): a frame in the selection's colour
// along each cell's edge, over a pale one where the cells are big enough, so
// it shows on dark cells too. The centres keep their colour (what a reader
// reads, and what the tests sample); cells under 3 pixels get no frame.
void draw_outlined_cells(const HeatmapWidget& hm, const HeatmapGeometry& g) {
  const uint8_t* marks = hm.spec.outlined;
  if (!marks || g.cell_px < 3) return;
  const ImU32 blue = colors().selection, pale = IM_COL32(255, 255, 255, 200);
  const float cell = g.cell, px = g.cell / float(g.cell_px);  // one framebuffer pixel in ImGui units
  for (int r = g.row0; r < g.row0 + g.rows; ++r)
    for (int c = g.col0; c < g.col0 + g.cols; ++c) {
      if (!marks[std::size_t(r) * std::size_t(hm.spec.cols) + std::size_t(c)]) continue;
      const ImVec2 min(g.cell_min.x + float(c - g.col0) * cell, g.cell_min.y + float(r - g.row0) * cell);
      const ImVec2 max(min.x + cell, min.y + cell);
      if (g.cell_px >= 8)
        hm.draw_list->AddRect(min, max, pale, 0, 0, 3 * px);
      hm.draw_list->AddRect(ImVec2(min.x + px * 0.5f, min.y + px * 0.5f), ImVec2(max.x - px * 0.5f, max.y - px * 0.5f),
                            blue, 0, 0, g.cell_px >= 8 ? 1.5f * px : px);
    }
}

// The keyboard's cell cursor: a dark and a light frame around the cell, so
// it shows on every colour of every map.
void draw_cell_cursor(const HeatmapWidget& hm, const HeatmapGeometry& g) {
  const int row = hm.spec.cursor_row, col = hm.spec.cursor_col;
  if (row < g.row0 || row >= g.row0 + g.rows || col < g.col0 || col >= g.col0 + g.cols) return;
  const ImVec2 min(g.cell_min.x + float(col - g.col0) * g.cell, g.cell_min.y + float(row - g.row0) * g.cell);
  const ImVec2 max(min.x + std::max(g.cell, 2.0f), min.y + std::max(g.cell, 2.0f));
  hm.draw_list->AddRect(ImVec2(min.x - 2, min.y - 2), ImVec2(max.x + 2, max.y + 2), IM_COL32(0, 0, 0, 255), 0, 0, 2.0f);
  hm.draw_list->AddRect(min, max, IM_COL32(255, 255, 255, 255), 0, 0, 2.0f);
}

// The default hover tooltip's body: row and column (label and index) and the value.
void cell_readout(const HeatmapWidget& hm, int row, int col, float value) {
  const HeatmapSpec& spec = hm.spec;
  const std::vector<std::string>& row_labels = hm.row_labels;
  const std::vector<std::string>& col_labels = hm.col_labels;
  if (row < int(row_labels.size()))
    ImGui::Text("%s: %s (%d)", spec.row_axis, row_labels[std::size_t(row)].c_str(), row);
  else
    ImGui::Text("%s: %d", spec.row_axis, row);
  if (col < int(col_labels.size()))
    ImGui::Text("%s: %s (%d)", spec.col_axis, col_labels[std::size_t(col)].c_str(), col);
  else
    ImGui::Text("%s: %d", spec.col_axis, col);
  if (value > gfx::kMaskedValue) ImGui::Text("%s: %.4f", spec.value_name, double(value));
  else ImGui::Text("%s: -inf", spec.value_name);
}

// Wheel zooms around the cell under the mouse (it stays under the mouse).
void wheel_zoom(const HeatmapSpec& spec, const HeatmapGeometry& g, int mouse_x_px, int mouse_y_px, float wheel) {
  HeatmapZoom& z = *spec.zoom;
  const float fx = float(mouse_x_px - g.x_px) / float(g.w_px), fy = float(mouse_y_px - g.y_px) / float(g.h_px);
  const float anchor_c = float(g.col0) + fx * float(g.cols), anchor_r = float(g.row0) + fy * float(g.rows);
  z.zoom = std::clamp(z.zoom * std::pow(1.25f, wheel), 1.0f, float(std::max(spec.rows, spec.cols)));
  const float new_cols = std::min(float(spec.cols), std::ceil(float(spec.cols) / z.zoom));
  const float new_rows = std::min(float(spec.rows), std::ceil(float(spec.rows) / z.zoom));
  z.col0 = anchor_c - fx * new_cols;
  z.row0 = anchor_r - fy * new_rows;
}

// Hover readout: outline the cell, mark its value on the colorbar, tooltip;
// the wheel zooms. Returns where the cells are and which one is hovered or clicked.
HeatmapCells hover_readout(const HeatmapWidget& hm, const HeatmapGeometry& g, bool hovered, bool released) {
  const HeatmapSpec& spec = hm.spec;
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 mouse = io.MousePos;
  HeatmapCells out{g.x_px, g.y_px, g.w_px, g.h_px, g.row0, g.col0, g.rows, g.cols};
  // No mouse (-FLT_MAX: a batch run, a touch lifted) is over no cell; converting
  // it to int would be undefined behaviour (clang's UBSan: float-cast-overflow).
  if (!hovered || !ImGui::IsMousePosValid(&mouse)) return out;
  const int mouse_x_px = int(std::floor(mouse.x * hm.scale)), mouse_y_px = int(std::floor(mouse.y * hm.scale));
  if (!(mouse_x_px >= g.x_px && mouse_x_px < g.x_px + g.w_px && mouse_y_px >= g.y_px &&
        mouse_y_px < g.y_px + g.h_px))
    return out;
  const int c = (mouse_x_px - g.x_px) / g.cell_px, r = (mouse_y_px - g.y_px) / g.cell_px;
  out.hovered_row = g.row0 + r;
  out.hovered_col = g.col0 + c;
  // A click is a release without a drag (a drag pans instead).
  out.clicked = released && io.MouseDragMaxDistanceSqr[0] < 16.0f;
  const float value = spec.values[std::size_t(g.row0 + r) * std::size_t(spec.cols) + std::size_t(g.col0 + c)];
  const ImVec2 a(g.cell_min.x + float(c) * g.cell, g.cell_min.y + float(r) * g.cell);
  // Two tones (text colour inside a ring of the panel's), so the outline
  // reads on any cell colour, dark or light, in either theme.
  const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text), paper = colors().panel_bg;
  if (g.cell_px >= 8) {
    hm.draw_list->AddRect(a, ImVec2(a.x + g.cell, a.y + g.cell), paper, 0, 0, 4.0f);
    hm.draw_list->AddRect(a, ImVec2(a.x + g.cell, a.y + g.cell), ink, 0, 0, 2.0f);
  }
  if (spec.colorbar && value > gfx::kMaskedValue) {
    const float y = g.bar_max.y - gfx::normalise_value(value, spec.lo, spec.hi) * (g.bar_max.y - g.bar_min.y);
    hm.draw_list->AddLine(ImVec2(g.bar_min.x - 3, y), ImVec2(g.bar_max.x + 3, y), paper, 4.0f);
    hm.draw_list->AddLine(ImVec2(g.bar_min.x - 3, y), ImVec2(g.bar_max.x + 3, y), ink, 2.0f);
  }
  ImGui::BeginTooltip();
  if (spec.tooltip) spec.tooltip(out.hovered_row, out.hovered_col);
  else cell_readout(hm, out.hovered_row, out.hovered_col, value);
  ImGui::EndTooltip();
  if (spec.zoom && io.MouseWheel != 0.0f) {
    wheel_zoom(spec, g, mouse_x_px, mouse_y_px, io.MouseWheel);
    GetCurrentContext()->wheel_zoom_frame = ImGui::GetFrameCount();
  }
  return out;
}

// Drag pans by whole cells' worth of mouse movement.
void drag_pan(const HeatmapWidget& hm, const HeatmapGeometry& g, bool active) {
  if (!hm.spec.zoom || !active || !ImGui::IsMouseDragging(ImGuiMouseButton_Left)) return;
  const ImGuiIO& io = ImGui::GetIO();
  hm.spec.zoom->col0 -= io.MouseDelta.x * hm.scale / float(g.cell_px);
  hm.spec.zoom->row0 -= io.MouseDelta.y * hm.scale / float(g.cell_px);
}

}  // namespace

float HeatmapHeight(const HeatmapSpec& spec, float width) {
  if (!spec.values || spec.rows <= 0 || spec.cols <= 0) return 0;
  HeatmapSpec whole = spec;  // all cells, at the width's square cells
  whole.zoom = nullptr;
  const HeatmapWidget hm(whole);
  const ImVec2 size(width, width * 4.0f + hm.font * 20.0f);
  HeatmapGeometry g;
  g.margins = heatmap_margins(hm, size);
  if (!choose_cell_window(hm, size, &g)) return 0;
  const float bottom = hm.pad + (g.upright_cols ? std::min(g.margins.col_label_w, hm.font * 8.0f) : hm.font) +
                       g.margins.axis_h + hm.pad + g.margins.bar_below_h;
  return g.margins.top + float(g.cell_px * g.rows) / hm.scale + bottom;
}

bool PlotHeatmap(const char* label_id, const HeatmapSpec& spec, const ImVec2& size_arg, HeatmapCells* cells) {
  Context& ctx = *g_context;
  if (!spec.values || spec.rows <= 0 || spec.cols <= 0) return false;
  const ImVec2 size = resolve_size(size_arg);
  const ImGuiID id = ImGui::GetID(label_id);  // the id InvisibleButton gets
  const bool released = ImGui::InvisibleButton(label_id, size);
  const bool hovered = ImGui::IsItemHovered();
  const bool active = ImGui::IsItemActive();
  const ImVec2 frame_min = ImGui::GetItemRectMin();
  if (!ImGui::IsItemVisible()) return false;
  if (!ctx.renderer.ready() && ctx.renderer_error.empty()) ctx.renderer.init(&ctx.renderer_error);

  const HeatmapWidget hm(spec);
  HeatmapGeometry geometry;
  geometry.margins = heatmap_margins(hm, size);
  if (!choose_cell_window(hm, size, &geometry)) return false;
  place_cells(hm, size, frame_min, &geometry);

  draw_cells(ctx, id, hm, geometry);
  draw_token_labels(hm, geometry);
  draw_axis_titles(hm, geometry);
  if (spec.colorbar && geometry.margins.bar_below)
    DrawColorbarBelow(hm.draw_list, geometry.bar_min, geometry.bar_max, spec.colormap, spec.lo, spec.hi);
  else if (spec.colorbar)
    DrawColorbar(hm.draw_list, geometry.bar_min, geometry.bar_max, spec.colormap, spec.lo, spec.hi);
  draw_outlined_cells(hm, geometry);
  draw_selected_row(hm, geometry);
  draw_cell_cursor(hm, geometry);
  const HeatmapCells out = hover_readout(hm, geometry, hovered, released);
  drag_pan(hm, geometry, active);

  if (cells) *cells = out;
  return true;
}

}  // namespace attn::plot
