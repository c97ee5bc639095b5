// The plot layer; see plot.hpp for the API and its ImPlot-like conventions.
#include "ui/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

namespace attn::plot {
namespace {

// The current context, set by its owner each frame (as ImGui::SetCurrentContext).
Context* g_context = nullptr;

// matplotlib's tab10, so overlaid series look like the chapter's figures.
constexpr ImU32 kSeriesColors[] = {
    IM_COL32(31, 119, 180, 255), IM_COL32(255, 127, 14, 255), IM_COL32(44, 160, 44, 255),
    IM_COL32(214, 39, 40, 255),  IM_COL32(148, 103, 189, 255), IM_COL32(140, 86, 75, 255)};
constexpr int kSeriesColorCount = int(sizeof(kSeriesColors) / sizeof(kSeriesColors[0]));

constexpr ImU32 kAxisColor = IM_COL32(40, 40, 40, 255);
constexpr ImU32 kGridColor = IM_COL32(0, 0, 0, 24);
constexpr ImU32 kPlotBackground = IM_COL32(255, 255, 255, 255);

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

float framebuffer_scale() {
  const float scale = ImGui::GetIO().DisplayFramebufferScale.x;
  return scale > 0 ? scale : 1.0f;
}

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
void add_text_vertical(ImDrawList* draw_list, ImVec2 center, ImU32 color, const char* text) {
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

ImU32 SeriesColor(int index) { return kSeriesColors[((index % kSeriesColorCount) + kSeriesColorCount) % kSeriesColorCount]; }
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

void EndPlot() {
  Context& ctx = *g_context;
  IM_ASSERT(ctx.in_plot && "EndPlot() without a successful BeginPlot()");
  ctx.in_plot = false;
  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const float pad = std::floor(font * 0.4f);
  const ImU32 text_color = ImGui::GetColorU32(ImGuiCol_Text);

  // 1. Limits: fixed, or fitted to every item with matplotlib-like margins
  //    (bars stand on y = 0, which stays the bottom edge).
  Extent x_extent, y_extent;
  bool has_bars = false;
  for (const PlotItem& item : ctx.items) {
    for (std::size_t i = 0; i < item.xs.size(); ++i) {
      x_extent.add(item.xs[i]);
      x_extent.add(item.xs[i] + item.width);
      if (!item.vlines) y_extent.add(item.ys[i]);
    }
    if (item.bars) {
      y_extent.add(0.0);
      has_bars = true;
    }
  }
  double limits[2][2];
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

  // 2. Margins from the tick labels, then the plot rectangle.
  const ImVec2 frame_min = ctx.frame_min, frame_max = ctx.frame_max;
  const float title_h = ctx.title.empty() ? 0.0f : font + pad;
  const float x_label_h = ctx.x_label.empty() ? 0.0f : font + pad;
  const float y_label_w = ctx.y_label.empty() ? 0.0f : font + pad;
  const float plot_h_guess = (frame_max.y - frame_min.y) - title_h - x_label_h - font - 2 * pad;
  int y_decimals = 0;
  const std::vector<double> y_ticks =
      NiceTicks(limits[1][0], limits[1][1], std::max(2, int(plot_h_guess / (font * 2.5f))), &y_decimals);
  const std::vector<std::string> y_tick_text = tick_labels(y_ticks, y_decimals);
  const ImVec2 plot_min(std::floor(frame_min.x + y_label_w + widest(y_tick_text) + 2 * pad),
                        std::floor(frame_min.y + title_h + pad));
  const ImVec2 plot_max(std::floor(frame_max.x - font), std::floor(frame_max.y - x_label_h - font - pad));
  if (plot_max.x - plot_min.x < 8 || plot_max.y - plot_min.y < 8) return;
  const float plot_w = plot_max.x - plot_min.x, plot_h = plot_max.y - plot_min.y;
  auto to_px = [&](double x) {
    return float(plot_min.x + (x - limits[0][0]) / (limits[0][1] - limits[0][0]) * plot_w);
  };
  auto to_py = [&](double y) {
    return float(plot_max.y - (y - limits[1][0]) / (limits[1][1] - limits[1][0]) * plot_h);
  };
  int x_decimals = 0;
  std::vector<double> x_ticks;
  std::vector<std::string> x_tick_text;
  if (ctx.x_tick_values.empty()) {
    x_ticks = NiceTicks(limits[0][0], limits[0][1], std::max(2, int(plot_w / (font * 5.0f))), &x_decimals);
    x_tick_text = tick_labels(x_ticks, x_decimals);
  } else {
    // Every k-th label, k chosen so the widest label fits between two shown ticks.
    float widest = 0;
    for (const std::string& label : ctx.x_tick_labels) widest = std::max(widest, ImGui::CalcTextSize(label.c_str()).x);
    const double span = limits[0][1] - limits[0][0];
    const double per_tick = span > 0 ? plot_w / span : plot_w;  // pixels per unit of x
    const std::size_t step = std::size_t(std::max(1.0, std::ceil((widest + font) / per_tick)));
    for (std::size_t i = 0; i < ctx.x_tick_values.size(); i += step) {
      x_ticks.push_back(ctx.x_tick_values[i]);
      x_tick_text.push_back(ctx.x_tick_labels[i]);
    }
  }

  // 3. Background, grid, items (clipped to the plot), frame, ticks, labels.
  draw_list->AddRectFilled(plot_min, plot_max, kPlotBackground);
  for (double t : y_ticks) draw_list->AddLine(ImVec2(plot_min.x, to_py(t)), ImVec2(plot_max.x, to_py(t)), kGridColor);
  for (double t : x_ticks) draw_list->AddLine(ImVec2(to_px(t), plot_min.y), ImVec2(to_px(t), plot_max.y), kGridColor);

  draw_list->PushClipRect(plot_min, plot_max, true);
  for (const PlotItem& item : ctx.items) {
    if (item.bars) {
      // Overlaid series stay readable at half opacity (matplotlib alpha=0.5).
      const ImU32 fill = (item.color & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 128);
      for (std::size_t i = 0; i < item.xs.size(); ++i) {
        if (item.ys[i] == 0) continue;
        draw_list->AddRectFilled(ImVec2(to_px(item.xs[i]), to_py(item.ys[i])),
                                 ImVec2(to_px(item.xs[i] + item.width), to_py(0.0)), fill);
      }
    } else if (item.vlines) {
      // Dashed, so a reference line never reads as data.
      const float dash = std::floor(font * 0.4f);
      for (double x : item.xs) {
        const float px = std::floor(to_px(x)) + 0.5f;
        for (float y = plot_min.y; y < plot_max.y; y += 2 * dash)
          draw_list->AddLine(ImVec2(px, y), ImVec2(px, std::min(y + dash, plot_max.y)), item.color, 1.5f);
      }
    } else if (item.markers) {
      for (std::size_t i = 0; i < item.xs.size(); ++i)
        draw_list->AddCircleFilled(ImVec2(to_px(item.xs[i]), to_py(item.ys[i])), std::max(2.5f, font * 0.25f), item.color);
    } else {
      std::vector<ImVec2> points;
      for (std::size_t i = 0; i < item.xs.size(); ++i) points.emplace_back(to_px(item.xs[i]), to_py(item.ys[i]));
      draw_list->AddPolyline(points.data(), int(points.size()), item.color, 0, std::max(1.5f, font / 8));
    }
  }
  draw_list->PopClipRect();
  draw_list->AddRect(ImVec2(plot_min.x - 1, plot_min.y - 1), ImVec2(plot_max.x + 1, plot_max.y + 1), kAxisColor);

  const float tick_len = std::floor(font * 0.3f);
  for (std::size_t i = 0; i < y_ticks.size(); ++i) {
    const float y = std::floor(to_py(y_ticks[i])) + 0.5f;
    draw_list->AddLine(ImVec2(plot_min.x - 1 - tick_len, y), ImVec2(plot_min.x - 1, y), kAxisColor);
    const float w = ImGui::CalcTextSize(y_tick_text[i].c_str()).x;
    draw_list->AddText(ImVec2(plot_min.x - 1 - tick_len - pad * 0.5f - w, y - font * 0.5f), text_color,
                       y_tick_text[i].c_str());
  }
  for (std::size_t i = 0; i < x_ticks.size(); ++i) {
    const float x = std::floor(to_px(x_ticks[i])) + 0.5f;
    draw_list->AddLine(ImVec2(x, plot_max.y + 1), ImVec2(x, plot_max.y + 1 + tick_len), kAxisColor);
    add_text_centered(draw_list, ImVec2(x, plot_max.y + 1 + tick_len), text_color, x_tick_text[i].c_str());
  }
  if (!ctx.title.empty())
    add_text_centered(draw_list, ImVec2((plot_min.x + plot_max.x) * 0.5f, frame_min.y), text_color, ctx.title.c_str());
  if (!ctx.x_label.empty())
    add_text_centered(draw_list, ImVec2((plot_min.x + plot_max.x) * 0.5f, plot_max.y + tick_len + font + pad),
                      text_color, ctx.x_label.c_str());
  if (!ctx.y_label.empty())
    add_text_vertical(draw_list, ImVec2(frame_min.x + font * 0.5f, (plot_min.y + plot_max.y) * 0.5f), text_color,
                      ctx.y_label.c_str());

  // 4. Legend, top right inside the plot.
  std::vector<const PlotItem*> legend_items;
  for (const PlotItem& item : ctx.items)
    if (!item.label.empty()) legend_items.push_back(&item);
  if (!(ctx.flags & PlotFlags_NoLegend) && !legend_items.empty()) {
    float label_w = 0;
    for (const PlotItem* item : legend_items) label_w = std::max(label_w, ImGui::CalcTextSize(item->label.c_str()).x);
    const float row_h = font + 2;
    const ImVec2 box_size(pad * 3 + font + label_w, row_h * float(legend_items.size()) + 2 * pad);
    const float box_x = (ctx.flags & PlotFlags_LegendWest) ? plot_min.x + pad : plot_max.x - pad - box_size.x;
    const float box_y = (ctx.flags & PlotFlags_LegendSouth) ? plot_max.y - pad - box_size.y : plot_min.y + pad;
    const ImVec2 box_min(box_x, box_y), box_max(box_x + box_size.x, box_y + box_size.y);
    draw_list->AddRectFilled(box_min, box_max, IM_COL32(255, 255, 255, 220));
    draw_list->AddRect(box_min, box_max, IM_COL32(0, 0, 0, 60));
    for (std::size_t i = 0; i < legend_items.size(); ++i) {
      const ImVec2 row(box_min.x + pad, box_min.y + pad + row_h * float(i));
      const float inset = std::floor(font * 0.15f);
      draw_list->AddRectFilled(ImVec2(row.x, row.y + inset), ImVec2(row.x + font - 2 * inset, row.y + font - inset),
                               legend_items[i]->color);
      draw_list->AddText(ImVec2(row.x + font + pad, row.y), text_color, legend_items[i]->label.c_str());
    }
  }

  // 5. Hover readout: a guide line and what each series holds at that x.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (ctx.hovered && mouse.x >= plot_min.x && mouse.x < plot_max.x && mouse.y >= plot_min.y && mouse.y < plot_max.y) {
    draw_list->AddLine(ImVec2(mouse.x, plot_min.y), ImVec2(mouse.x, plot_max.y), IM_COL32(0, 0, 0, 90));
    const double x = limits[0][0] + double(mouse.x - plot_min.x) / plot_w * (limits[0][1] - limits[0][0]);
    ImGui::BeginTooltip();
    if (ctx.x_hover_format)
      ImGui::TextUnformatted(ctx.x_hover_format(x).c_str());
    else
      ImGui::Text("%s = %s", ctx.x_label.empty() ? "x" : ctx.x_label.c_str(), format_number(x, x_decimals + 2).c_str());
    for (const PlotItem& item : ctx.items) {
      if (item.vlines || item.label.empty()) continue;
      for (std::size_t i = 0; i < item.xs.size(); ++i) {
        const bool last = i + 1 == item.xs.size();
        const bool inside = item.bars ? (x >= item.xs[i] && (x < item.xs[i] + item.width || (last && x <= item.xs[i] + item.width)))
                                      : (last || std::fabs(item.xs[i] - x) <= std::fabs(item.xs[i + 1] - x));
        if (!inside) continue;
        if (item.bars) {
          ImGui::TextColored(ImColor(item.color), "%s: %g  [%s, %s)", item.label.c_str(), item.ys[i],
                             format_number(item.xs[i], x_decimals + 2).c_str(),
                             format_number(item.xs[i] + item.width, x_decimals + 2).c_str());
        } else {
          ImGui::TextColored(ImColor(item.color), "%s: %g", item.label.c_str(), item.ys[i]);
        }
        break;
      }
    }
    ImGui::EndTooltip();
  }
}

// ---- heatmaps ----------------------------------------------------------------

void DrawColorbar(ImDrawList* draw_list, const ImVec2& min, const ImVec2& max, gfx::Colormap colormap, float lo,
                  float hi) {
  const float scale = framebuffer_scale();
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
  draw_list->AddRect(ImVec2(min.x - 1, min.y - 1), ImVec2(max.x + 1, max.y + 1), kAxisColor);
  int decimals = 0;
  const std::vector<double> ticks = NiceTicks(lo, hi, colorbar_max_ticks(max.y - min.y, font), &decimals);
  const float tick_len = colorbar_tick_length(font);
  for (double v : ticks) {
    const float y = std::floor(max.y - gfx::normalise_value(float(v), lo, hi) * (max.y - min.y)) + 0.5f;
    draw_list->AddLine(ImVec2(max.x + 1, y), ImVec2(max.x + 1 + tick_len, y), kAxisColor);
    draw_list->AddText(ImVec2(max.x + colorbar_label_offset(font), std::floor(y - font * 0.5f)), text_color,
                       format_number(v, decimals).c_str());
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

}  // namespace

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

  ImDrawList* draw_list = ImGui::GetWindowDrawList();
  const float scale = framebuffer_scale();
  const float font = ImGui::GetFontSize();
  const float pad = std::floor(font * 0.4f);
  const ImU32 text_color = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim_color = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  static const std::vector<std::string> no_labels;
  const std::vector<std::string>& row_labels = spec.row_labels ? *spec.row_labels : no_labels;
  const std::vector<std::string>& col_labels = spec.col_labels ? *spec.col_labels : no_labels;
  const bool has_row_axis = spec.row_axis && *spec.row_axis;
  const bool has_col_axis = spec.col_axis && *spec.col_axis;
  auto label_valid = [](const std::vector<bool>* valid, int i) {
    return !valid || i >= int(valid->size()) || (*valid)[std::size_t(i)];
  };

  // Margins around the cells: axis title + labels on the left and below,
  // the colorbar and its tick labels on the right.
  const float row_label_w = widest(row_labels);
  const float col_label_w = widest(col_labels);
  const float left = (has_row_axis ? font + pad : 0.0f) + row_label_w + pad;
  // Colorbar labels: the ticks DrawColorbar will pick for about this height,
  // and at least "0.0000" wide so neighbouring heatmaps get equal cells.
  int tick_decimals = 0;
  const std::vector<double> ticks =
      NiceTicks(spec.lo, spec.hi, colorbar_max_ticks(size.y - 3 * font, font), &tick_decimals);
  const float tick_label_w = std::max(widest(tick_labels(ticks, tick_decimals)), ImGui::CalcTextSize("0.0000").x);
  const float bar_gap = std::floor(font * 0.8f), bar_w = font;
  const float right = spec.colorbar ? bar_gap + bar_w + colorbar_label_offset(font) + tick_label_w + pad : pad;
  const float top = std::floor(font * 0.5f);  // half a label: the top colorbar tick is centred on the edge
  const float axis_h = has_col_axis ? pad + font : 0.0f;

  // Which cells are shown: all of them, or the zoomed window; too many cells
  // for the pixels available are cut to one framebuffer pixel per cell.
  int row0 = 0, col0 = 0, rows = spec.rows, cols = spec.cols, cell_px = 0;
  bool upright_cols = false;
  float bottom = pad + font + axis_h + pad;
  for (int pass = 0; pass < 2; ++pass) {
    const float avail_w = (size.x - left - right) * scale, avail_h = (size.y - top - bottom) * scale;
    const float zoom = spec.zoom ? spec.zoom->zoom : 1.0f;
    // Square matrices (queries x keys) keep square windows: the diagonal stays the diagonal.
    const int fit_h = spec.rows == spec.cols ? int(std::min(avail_w, avail_h)) : int(avail_h);
    const int fit_w = spec.rows == spec.cols ? fit_h : int(avail_w);
    visible_window(spec.rows, zoom, spec.zoom ? &spec.zoom->row0 : nullptr, fit_h, &row0, &rows);
    visible_window(spec.cols, zoom, spec.zoom ? &spec.zoom->col0 : nullptr, fit_w, &col0, &cols);
    cell_px = int(std::floor(std::min(avail_w / float(cols), avail_h / float(rows))));
    // Key labels too wide for their cells are turned upright.
    if (pass == 0) {
      upright_cols = col_label_w + pad > float(cell_px) / scale;
      if (!upright_cols) break;
      bottom = pad + std::min(col_label_w, font * 8.0f) + axis_h + pad;
    }
  }
  if (cell_px < 1) return false;

  // Cells snap to whole framebuffer pixels, and every cell is cell_px square,
  // so layout rectangles and the drawn texture agree exactly.
  const int w_px = cell_px * cols, h_px = cell_px * rows;
  const float w = float(w_px) / scale, h = float(h_px) / scale;
  const float spare_x = std::max(0.0f, size.x - (left + w + right));
  const int x_px = int(std::lround((frame_min.x + spare_x * 0.5f + left) * scale));
  const int y_px = int(std::lround((frame_min.y + top) * scale));  // top-aligned under the title
  const ImVec2 cell_min(float(x_px) / scale, float(y_px) / scale);
  const ImVec2 cell_max(cell_min.x + w, cell_min.y + h);

  // The window's values, row-major (the whole matrix when nothing is cut).
  const float* shown_values = spec.values;
  std::vector<float> window;
  if (rows != spec.rows || cols != spec.cols) {
    window.resize(std::size_t(rows) * std::size_t(cols));
    for (int r = 0; r < rows; ++r)
      std::copy_n(spec.values + std::size_t(row0 + r) * std::size_t(spec.cols) + std::size_t(col0), cols,
                  window.begin() + std::ptrdiff_t(r) * cols);
    shown_values = window.data();
  }
  gfx::Heatmap& heatmap = ctx.heatmaps[id];
  heatmap.set_values(shown_values, rows, cols);
  heatmap.set_range(spec.lo, spec.hi);
  heatmap.set_colormap(spec.colormap);
  heatmap.render(ctx.renderer, w_px, h_px);
  if (heatmap.texture()) {
    draw_list->AddImage(ImTextureID(intptr_t(heatmap.texture())), cell_min, cell_max);
  } else {
    draw_list->AddText(cell_min, IM_COL32(200, 0, 0, 255), ctx.renderer_error.c_str());
  }
  draw_list->AddRect(ImVec2(cell_min.x - 1, cell_min.y - 1), ImVec2(cell_max.x + 1, cell_max.y + 1), kAxisColor);

  // Token labels: queries down the left, keys along the bottom. When cells
  // are smaller than a line of text, only every stride-th label is drawn.
  const float cell = float(cell_px) / scale;
  const int stride = std::max(1, int(std::ceil(font / cell)));
  for (int r = 0; r < rows && row0 + r < int(row_labels.size()); r += stride) {
    const char* text = row_labels[std::size_t(row0 + r)].c_str();
    const float cy = cell_min.y + (float(r) + 0.5f) * cell;
    draw_list->AddText(ImVec2(cell_min.x - pad - ImGui::CalcTextSize(text).x, std::floor(cy - font * 0.5f)),
                       label_valid(spec.row_label_valid, row0 + r) ? text_color : dim_color, text);
  }
  for (int c = 0; c < cols && col0 + c < int(col_labels.size()); c += upright_cols ? stride : 1) {
    const char* text = col_labels[std::size_t(col0 + c)].c_str();
    const ImU32 color = label_valid(spec.col_label_valid, col0 + c) ? text_color : dim_color;
    const float cx = cell_min.x + (float(c) + 0.5f) * cell;
    if (upright_cols) {
      const float tw = ImGui::CalcTextSize(text).x;
      add_text_vertical(draw_list, ImVec2(cx, cell_max.y + pad + tw * 0.5f), color, text);
    } else {
      add_text_centered(draw_list, ImVec2(cx, cell_max.y + pad), color, text);
    }
  }
  if (has_row_axis)
    add_text_vertical(draw_list, ImVec2(cell_min.x - pad - row_label_w - pad - font * 0.5f, (cell_min.y + cell_max.y) * 0.5f),
                      text_color, spec.row_axis);
  if (has_col_axis)
    add_text_centered(draw_list,
                      ImVec2((cell_min.x + cell_max.x) * 0.5f,
                             cell_max.y + pad + (upright_cols ? std::min(col_label_w, font * 8.0f) : font) + pad),
                      text_color, spec.col_axis);

  const ImVec2 bar_min(cell_max.x + bar_gap, cell_min.y), bar_max(cell_max.x + bar_gap + bar_w, cell_max.y);
  if (spec.colorbar) DrawColorbar(draw_list, bar_min, bar_max, spec.colormap, spec.lo, spec.hi);

  // The selected query: an outline around its row when cells are big enough
  // for it to stay off their centres, and always a marker left of the row.
  if (spec.highlight_row >= row0 && spec.highlight_row < row0 + rows) {
    const float y0 = cell_min.y + float(spec.highlight_row - row0) * cell;
    const ImU32 blue = IM_COL32(0, 90, 255, 255);
    if (cell_px >= 8)
      draw_list->AddRect(ImVec2(cell_min.x - 2, y0 - 1), ImVec2(cell_max.x + 2, y0 + cell + 1), blue, 0, 0, 2.0f);
    draw_list->AddRectFilled(ImVec2(cell_min.x - 5, y0), ImVec2(cell_min.x - 2, y0 + std::max(cell, 2.0f)), blue);
  }

  // Hover readout: outline the cell, mark its value on the colorbar, tooltip.
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 mouse = io.MousePos;
  const int mouse_x_px = int(std::floor(mouse.x * scale)), mouse_y_px = int(std::floor(mouse.y * scale));
  HeatmapCells out{x_px, y_px, w_px, h_px, row0, col0, rows, cols};
  if (hovered && mouse_x_px >= x_px && mouse_x_px < x_px + w_px && mouse_y_px >= y_px && mouse_y_px < y_px + h_px) {
    const int c = (mouse_x_px - x_px) / cell_px, r = (mouse_y_px - y_px) / cell_px;
    out.hovered_row = row0 + r;
    out.hovered_col = col0 + c;
    // A click is a release without a drag (a drag pans instead).
    out.clicked = released && io.MouseDragMaxDistanceSqr[0] < 16.0f;
    const float value = shown_values[std::size_t(r) * std::size_t(cols) + std::size_t(c)];
    const ImVec2 a(cell_min.x + float(c) * cell, cell_min.y + float(r) * cell);
    if (cell_px >= 8) draw_list->AddRect(a, ImVec2(a.x + cell, a.y + cell), IM_COL32(0, 0, 0, 255), 0, 0, 2.0f);
    if (spec.colorbar && value > gfx::kMaskedValue) {
      const float y = bar_max.y - gfx::normalise_value(value, spec.lo, spec.hi) * (bar_max.y - bar_min.y);
      draw_list->AddLine(ImVec2(bar_min.x - 3, y), ImVec2(bar_max.x + 3, y), IM_COL32(0, 0, 0, 255), 2.0f);
    }
    ImGui::BeginTooltip();
    if (spec.tooltip) {
      spec.tooltip(out.hovered_row, out.hovered_col);
    } else {
      const int R = out.hovered_row, C = out.hovered_col;
      if (R < int(row_labels.size())) ImGui::Text("%s: %s (%d)", spec.row_axis, row_labels[std::size_t(R)].c_str(), R);
      else ImGui::Text("%s: %d", spec.row_axis, R);
      if (C < int(col_labels.size())) ImGui::Text("%s: %s (%d)", spec.col_axis, col_labels[std::size_t(C)].c_str(), C);
      else ImGui::Text("%s: %d", spec.col_axis, C);
      if (value > gfx::kMaskedValue) ImGui::Text("%s: %.4f", spec.value_name, double(value));
      else ImGui::Text("%s: -inf", spec.value_name);
    }
    ImGui::EndTooltip();

    // Wheel zooms around the cell under the mouse (it stays under the mouse).
    if (spec.zoom && io.MouseWheel != 0.0f) {
      HeatmapZoom& z = *spec.zoom;
      const float fx = float(mouse_x_px - x_px) / float(w_px), fy = float(mouse_y_px - y_px) / float(h_px);
      const float anchor_c = float(col0) + fx * float(cols), anchor_r = float(row0) + fy * float(rows);
      z.zoom = std::clamp(z.zoom * std::pow(1.25f, io.MouseWheel), 1.0f, float(std::max(spec.rows, spec.cols)));
      const float new_cols = std::min(float(spec.cols), std::ceil(float(spec.cols) / z.zoom));
      const float new_rows = std::min(float(spec.rows), std::ceil(float(spec.rows) / z.zoom));
      z.col0 = anchor_c - fx * new_cols;
      z.row0 = anchor_r - fy * new_rows;
    }
  }
  // Drag pans by whole cells' worth of mouse movement.
  if (spec.zoom && active && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    spec.zoom->col0 -= io.MouseDelta.x * scale / float(cell_px);
    spec.zoom->row0 -= io.MouseDelta.y * scale / float(cell_px);
  }

  if (cells) *cells = out;
  return true;
}

}  // namespace attn::plot
