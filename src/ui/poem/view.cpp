// The learned-heads view: one causal heatmap per layer x head of the poem
// model read on the text in use, each head's pattern as a sentence with its
// numbers, the selected head's offset profile, and for the selected position
// the ten likeliest next characters; under it all, the text as a strip
// coloured by the model's loss on each character. Clicking a cell selects
// its query (and the head); clicking a character of the strip selects it.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "ui/i18n/strings.hpp"
#include "ui/poem/poem.hpp"
#include "ui/state/records.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/plot.hpp"
#include "ui/widgets/theme.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

std::string detector_key(int detector, const char* part) {
  return "poem.detector." + std::to_string(detector) + part;
}

std::string head_title(int layer, int head) {
  char text[96];
  std::snprintf(text, sizeof text, tr("poem.head.fmt"), layer + 1, head + 1);
  return text;
}

// A token and what it is, for tooltips.
std::string token_text(const api::PoemReadingData& r, int i) {
  std::string text = poem_char_text(r.tokens[std::size_t(i)]);
  if (r.unknown[std::size_t(i)]) text += std::string(" ") + tr("poem.token.unknown");
  return text;
}

// detector: the head's pattern (-1: none); the tooltip says whether it counts the cell.
void cell_tooltip(const api::PoemReadingData& r, const Matrix& w, int q, int k, int detector) {
  ui::textf("%s: %d %s", tr("tip.query"), q, token_text(r, q).c_str());
  ui::textf("%s: %d %s", tr("tip.key"), k, token_text(r, k).c_str());
  ui::textf("%s: %.4f", tr("tip.weight"), double(w(q, k)));
  if (k > q) ui::text_disabled("%s", tr("tip.masked"));
  else if (detector >= 0 && r.counts(detector, q, k))
    ui::text_wrapped(tr("poem.outline.counted.fmt"), tr(detector_key(detector, "").c_str()));
}

void load_status(AppState& state) {
  PoemLab& lab = state.poem;
  ui::text_wrapped("%s", poem_load_text(lab).c_str());
  const PoemLab::ModelTraining* training = lab.model_training ? &*lab.model_training : nullptr;
  if (lab.load == ModuleLoad::Loading && training && training->steps > 0)
    ImGui::ProgressBar(float(training->step) / float(training->steps), ImVec2(ImGui::GetFontSize() * 16, 0));
  else if (lab.load == ModuleLoad::Loading && lab.total > 0)
    ImGui::ProgressBar(float(std::min(1.0, lab.received / lab.total)), ImVec2(ImGui::GetFontSize() * 16, 0));
  if (lab.load == ModuleLoad::Failed) {
    ui::text_wrapped("%s", tr("poem.load.rest_works"));
    if (ImGui::Button(tr("poem.load.retry"))) {
      lab.load = ModuleLoad::Requested;
      lab.load_error.clear();
    }
    record_control(state, "poem_retry");
  }
}

// What the view reads: the held-out poem or the reader's text, what was cut,
// what the model does not know.
void reading_header(AppState& state) {
  const PoemLab& lab = state.poem;
  const api::PoemReadingData& r = *lab.reading;
  const api::PoemSummary& s = *lab.summary;
  if (lab.show_trained && lab.training) {
    ui::text_wrapped(tr("poem.source.trained.fmt"), poem_label(s, lab.trained_poem).c_str(), lab.training->steps);
  } else if (lab.probe > 0) {
    ui::text_wrapped("%s", tr("poem.probe.look"));
  } else if (lab.poem >= 0) {
    ui::text_wrapped(tr("poem.source.held_out.fmt"), poem_label(s, lab.poem).c_str());
    if (lab.poem == s.default_poem)
      ui::text_wrapped(tr("poem.source.default.fmt"), s.whole_poems, double(s.default_weight) * 100.0);
  } else {
    ui::text_wrapped("%s", tr("poem.source.own"));
  }
  if (r.cut > 0) {
    ui::text_wrapped(tr("poem.window.fmt"), r.size(), r.size() + r.cut);
  }
  const int unknown = int(std::count(r.unknown.begin(), r.unknown.end(), uint8_t(1)));
  if (unknown > 0) ui::text_wrapped(tr("poem.unknown.fmt"), unknown);
  if (!lab.read_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current_palette().error));
    ui::text_wrapped("%s", lab.read_error.c_str());
    ImGui::PopStyleColor();
  }
}

void head_heatmap(AppState& state, int layer, int head, const ImVec2& size, const std::vector<std::string>& labels,
                  const std::vector<bool>& known) {
  PoemLab& lab = state.poem;
  const api::PoemReadingData& r = *lab.reading;
  const int index = layer * r.heads + head;
  const Matrix& w = lab.weights[std::size_t(index)];
  const bool selected = layer == lab.layer && head == lab.head;
  ImGui::PushID(index);
  begin_fitted_child("##poem_head", size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  // The title: which head, and its pattern in a sentence with its numbers.
  // Hovering it outlines the cells the pattern counts; clicking selects the
  // head with its outline (again: without).
  const api::PoemHead* found = poem_head_found(lab, layer, head);
  const std::string title = found ? poem_head_sentence(*found) : head_title(layer, head);
  const ImVec4 ink = selected ? ImGui::GetStyleColorVec4(ImGuiCol_PlotHistogram) : ImGui::GetStyleColorVec4(ImGuiCol_Text);
  ImGui::PushStyleColor(ImGuiCol_Text, ink);
  ImGui::PushTextWrapPos(0.0f);
  ui::text(title.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  const bool title_hovered = ImGui::IsItemHovered();
  if (ImGui::IsItemClicked()) {
    lab.outline = selected ? !lab.outline : true;
    lab.layer = layer;
    lab.head = head;
  }
  if (title_hovered) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  record_region(state, "poem_title_l" + std::to_string(layer) + "h" + std::to_string(head));
  HeatmapLayout entry;
  entry.name = "poem_l" + std::to_string(layer) + "h" + std::to_string(head);
  entry.title = head_title(layer, head);
  entry.source = "poem";  // compute({poem: {text}}).layers[layer].heads[head]
  entry.head = index;
  // From 0 to the head's largest weight after the first row (PoemLab::weights_hi):
  // over 64 characters most weights are small, and 0..1 would leave all but
  // the sharpest heads dark.
  plot::HeatmapSpec& spec = entry.spec = matrix_spec(w, 0.0f, lab.weights_hi[std::size_t(index)], state.head_colormap);
  spec.row_labels = spec.col_labels = &labels;
  spec.row_label_valid = spec.col_label_valid = &known;
  spec.row_axis = tr("axis.query");
  spec.col_axis = tr("axis.key");
  spec.value_name = tr("axis.weight");
  spec.highlight_row = poem_query(lab);
  const int detector = found ? poem_outline_detector(lab, *found) : -1;
  if (detector >= 0 && ((selected && lab.outline) || title_hovered))
    spec.outlined = r.counted.data() + std::size_t(detector) * std::size_t(r.size()) * std::size_t(r.size());
  spec.generation = ((lab.reading_generation * 1099511628211ull) ^ uint64_t(index + 1)) | 1;
  spec.tooltip = [&r, &w, detector](int q, int k) { cell_tooltip(r, w, q, k, detector); };
  const plot::HeatmapCells cells = draw_heatmap(state, std::move(entry), ImVec2(0, 0));
  if (cells.clicked) {
    lab.layer = layer;
    lab.head = head;
    lab.query = cells.hovered_row;
  }
  end_fitted_child();
  ImGui::PopID();
}

// The selected head: its pattern in words, and the mean weight at each offset.
void head_details(AppState& state, float height) {
  const PoemLab& lab = state.poem;  // (outline: the checkbox below changes it)
  const api::PoemHead* found = poem_head_found(lab, lab.layer, lab.head);
  if (!found) return;
  ImGui::BeginChild("##poem_head_details", ImVec2(0, height), true);
  ui::text_wrapped("%s", poem_head_sentence(*found).c_str());
  ImGui::SameLine();
  help_marker(tr("poem.pattern.help"));
  if (ImGui::Checkbox(tr("poem.outline"), &state.poem.outline)) mark_state_changed(state);
  record_control(state, "poem_outline");
  if (plot::BeginPlot("##poem_offsets", ImVec2(0, 0))) {
    plot::SetupAxes(tr("poem.offset.axis"), tr("poem.offset.weight"));
    float offsets[api::kPoemMaxOffset + 1];
    for (int d = 0; d <= api::kPoemMaxOffset; ++d) offsets[d] = float(d);
    plot::PlotBars(tr("poem.offset.legend"), offsets, found->by_offset.data(), api::kPoemMaxOffset + 1, 0.8);
    plot::EndPlot();
  }
  record_region(state, "poem_offsets");
  ImGui::EndChild();
}

// After the selected position: the ten likeliest next characters.
void next_characters(AppState& state, float height) {
  const PoemLab& lab = state.poem;
  const api::PoemReadingData& r = *lab.reading;
  const int q = poem_query(lab);
  ImGui::BeginChild("##poem_next", ImVec2(0, height), true);
  ui::text_wrapped(tr("poem.next.fmt"), q, token_text(r, q).c_str());
  if (ImGui::BeginTable("##poem_top", 3, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
    ImGui::TableSetupColumn("#");
    ImGui::TableSetupColumn(tr("poem.next.char"));
    ImGui::TableSetupColumn(tr("poem.next.p"));
    ImGui::TableHeadersRow();
    for (int i = 0; i < api::kPoemTop; ++i) {
      const std::size_t at = std::size_t(q) * api::kPoemTop + std::size_t(i);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ui::textf("%d", i + 1);
      ImGui::TableNextColumn();
      ui::text(poem_char_text(r.top_chars[at]).c_str());
      ImGui::TableNextColumn();
      ui::textf("%.3g %%", double(r.top_p[at]) * 100.0);
    }
    ImGui::EndTable();
  }
  record_region(state, "poem_next");
  ImGui::EndChild();
}

// The text as read, one box per character coloured by the loss of predicting
// it (-ln p, from the position before); a click selects the position.
void loss_strip(AppState& state, const std::vector<std::string>& labels) {
  PoemLab& lab = state.poem;
  const api::PoemReadingData& r = *lab.reading;
  title_with_help(tr("poem.loss.title"), tr("poem.loss.help"));
  float hi = 1.0f;
  for (float l : r.losses) hi = std::max(hi, l);
  const float side = ImGui::GetFrameHeight();
  const float right = ImGui::GetContentRegionAvail().x + ImGui::GetCursorScreenPos().x;
  const ImVec2 start = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int t = 0; t < r.size(); ++t) {
    if (t > 0) {
      ImGui::SameLine(0, 2);
      if (ImGui::GetCursorScreenPos().x + side > right) ImGui::NewLine();
    }
    ImGui::PushID(t);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    if (ImGui::InvisibleButton("##c", ImVec2(side, side))) lab.query = t;
    // Position t's character was predicted at t - 1 (<poem> never is).
    ImU32 fill = ImGui::GetColorU32(ImGuiCol_FrameBg), ink = ImGui::GetColorU32(ImGuiCol_Text);
    if (t > 0) {
      const gfx::Rgba8 c = gfx::colormap_color(gfx::Colormap::YlOrRd, r.losses[std::size_t(t - 1)] / hi);
      fill = IM_COL32(c.r, c.g, c.b, 255);
      // Dark ink on the pale end of the colours, white on the dark reds.
      ink = 0.299 * c.r + 0.587 * c.g + 0.114 * c.b > 140 ? IM_COL32(20, 20, 20, 255) : IM_COL32(255, 255, 255, 255);
    }
    draw->AddRectFilled(p, ImVec2(p.x + side, p.y + side), fill);
    if (t == poem_query(lab)) draw->AddRect(p, ImVec2(p.x + side, p.y + side), ImGui::GetColorU32(ImGuiCol_Text), 0, 0, 2);
    const ImVec2 size = ImGui::CalcTextSize(labels[std::size_t(t)].c_str());
    draw->AddText(ImVec2(p.x + (side - size.x) / 2, p.y + (side - size.y) / 2), ink, labels[std::size_t(t)].c_str());
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ui::textf("%d %s", t, token_text(r, t).c_str());
      if (t > 0) {
        const double loss = r.losses[std::size_t(t - 1)];
        ui::textf(tr("poem.loss.tip.fmt"), loss, std::exp(-loss) * 100.0);
      }
      ImGui::EndTooltip();
    }
    ImGui::PopID();
  }
  record_region(state, "poem_loss", start, ImVec2(right, ImGui::GetItemRectMax().y));
}

// The model being trained: its loss curves (each step's batch, and the
// held-out poems every kPoemEvalEvery steps) and, once it stops, how it
// compares with the shipped model.
void training_panel(AppState& state) {
  const PoemLab& lab = state.poem;
  if (!lab.training) return;
  const api::PoemTraining& t = *lab.training;
  const float font = ImGui::GetFontSize();
  ImGui::BeginChild("##poem_training", ImVec2(0, font * 16), true);
  ui::text_wrapped(tr("poem.train.progress.fmt"), t.steps, t.target, t.sequences, t.batch);
  ui::text_wrapped(tr("poem.train.recipe.fmt"), t.slice_poems, t.vocab, t.replicas);
  if (t.finished) {
    const float loss = t.eval_loss.empty() ? 0.0f : t.eval_loss.back();
    ui::text_wrapped(tr("poem.train.compare.fmt"), double(loss), double(t.shipped_loss));
  }
  if (plot::BeginPlot("##poem_curves", ImVec2(0, 0))) {
    plot::SetupAxes(tr("scaling.axis.step"), tr("poem.train.loss"));
    plot::SetupAxisLimits(plot::Axis_X, 0.0, double(std::max(t.target, 1)));
    plot::PlotLine(tr("poem.train.legend.train"), t.train_steps.data(), t.train_loss.data(), int(t.train_steps.size()));
    plot::PlotLine(tr("poem.train.legend.held_out"), t.eval_steps.data(), t.eval_loss.data(), int(t.eval_steps.size()));
    if (lab.summary) {
      const float xs[2] = {0.0f, float(t.target)}, ys[2] = {lab.summary->eval_loss, lab.summary->eval_loss};
      plot::PlotLine(tr("poem.train.legend.shipped"), xs, ys, 2);
    }
    plot::EndPlot();
  }
  record_region(state, "poem_curves");
  ImGui::EndChild();
}

}  // namespace

std::string poem_char_text(const std::string& ch) {
  if (ch == "<poem>") return tr("poem.token.start");
  if (ch == "\n") return tr("poem.token.line_break");
  if (ch == " ") return tr("poem.token.space");
  return ch;
}

std::string poem_token_label(const std::string& token) {
  if (token == "<poem>") return "*";  // (the key axis turns its labels: "^" would read as "<")
  if (token == "\n") return "/";
  return token;
}

std::string poem_head_sentence(const api::PoemHead& h) {
  std::string sentence = head_title(h.layer, h.head) + tr("poem.sentence.colon");
  char numbers[320];
  if (h.strongest >= 0) {  // "对仗：31 % 的权重在上一句的同一位置，是均匀注意力的 9 倍"
    const std::size_t d = std::size_t(h.strongest);
    std::snprintf(numbers, sizeof numbers, tr("poem.detected.fmt"), tr(detector_key(h.strongest, "").c_str()),
                  double(h.weight[d]) * 100.0, tr(detector_key(h.strongest, ".where").c_str()), double(h.ratio[d]));
  } else {  // no detector at 3x uniform and 20 %: the closest, and how spread the head is
    int best = 0;
    for (int d = 1; d < api::kPoemDetectors; ++d)
      if (h.ratio[std::size_t(d)] > h.ratio[std::size_t(best)]) best = d;
    std::snprintf(numbers, sizeof numbers, tr("poem.undetected.fmt"), tr(detector_key(best, "").c_str()),
                  double(h.weight[std::size_t(best)]) * 100.0, double(h.ratio[std::size_t(best)]), double(h.entropy),
                  double(h.uniform_entropy));
  }
  return sentence + numbers;
}

namespace {

// 14000 -> "14,000": the step counts as a reader writes them.
std::string with_thousands(int n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// "step 3,000 of 14,000, about 3 minutes left", from the progress the page polls.
std::string model_training_text(const PoemLab::ModelTraining& training) {
  if (training.step <= 0) return tr("poem.load.preparing");
  const double left = poem_training_seconds_left(training);
  const std::string time = left < 0 ? std::string("?")
                           : left < 60 ? std::string(tr("poem.load.under_minute"))
                                       : format(tr("poem.load.minutes.fmt"), std::max(1, int(std::lround(left / 60))));
  return format(tr("poem.load.training.fmt"), with_thousands(training.step).c_str(),
                with_thousands(training.steps).c_str(), time.c_str());
}

}  // namespace

std::string poem_load_text(const PoemLab& lab) {
  switch (lab.load) {
    case ModuleLoad::Idle:
    case ModuleLoad::Requested: return tr("poem.load.starting");
    case ModuleLoad::Loading:
      if (lab.model_training) return model_training_text(*lab.model_training);
      return lab.total > 0 ? format(tr("poem.load.progress.fmt"), lab.received / 1e6, lab.total / 1e6)
                           : tr("poem.load.starting");
    case ModuleLoad::Ready: return tr("poem.load.ready");
    case ModuleLoad::Failed: return std::string(tr("poem.load.failed")) + " " + lab.load_error;
  }
  return "";
}

void poem_view(AppState& state) {
  PoemLab& lab = state.poem;
  if (lab.load != ModuleLoad::Ready || !lab.reading) {
    load_status(state);
    if (lab.load == ModuleLoad::Ready && !lab.read_error.empty()) ui::text_wrapped("%s", lab.read_error.c_str());
    return;
  }
  const api::PoemReadingData& r = *lab.reading;
  training_panel(state);
  reading_header(state);
  std::vector<std::string> labels;
  std::vector<bool> known;
  for (int t = 0; t < r.size(); ++t) {
    labels.push_back(poem_token_label(r.tokens[std::size_t(t)]));
    known.push_back(!r.unknown[std::size_t(t)]);
  }
  loss_strip(state, labels);
  // Every head of every layer: a layer's heads on one row, or in equal
  // rows (columns divide the heads), each heatmap at least ~20 lines wide.
  const float font = ImGui::GetFontSize(), spacing = ImGui::GetStyle().ItemSpacing.x;
  const float width = ImGui::GetContentRegionAvail().x;
  const int fit = std::max(1, int((width + spacing) / (font * 20 + spacing)));
  int columns = 1;
  for (int c = 1; c <= std::min(fit, r.heads); ++c)
    if (r.heads % c == 0) columns = c;
  const float side = std::floor((width + spacing) / float(columns) - spacing);
  // Room for the heatmap and, above it, the title's sentence on two or three lines.
  const ImVec2 size(side, std::min(side * 0.85f + font * 3, font * 43));
  for (int i = 0; i < r.layers * r.heads; ++i) {
    if (i % columns) ImGui::SameLine();
    head_heatmap(state, i / r.heads, i % r.heads, size, labels, known);
  }
  // The selected head and position, side by side when there is room.
  const float height = std::max(font * 16, ImGui::GetTextLineHeightWithSpacing() * (api::kPoemTop + 3) +
                                               ImGui::GetStyle().WindowPadding.y * 2);
  const bool side_by_side = ImGui::GetContentRegionAvail().x > font * 36;
  if (side_by_side) {
    ImGui::BeginChild("##poem_details_left", ImVec2(ImGui::GetContentRegionAvail().x * 0.6f, height), false);
    head_details(state, height);
    ImGui::EndChild();
    ImGui::SameLine();
    next_characters(state, height);
  } else {
    head_details(state, height);
    next_characters(state, height);
  }
}

void describe_poem(const AppState& state, A11yView& out) {
  const PoemLab& lab = state.poem;
  if (lab.load != ModuleLoad::Ready || !lab.reading) {
    out.summary = poem_load_text(lab);
    return;
  }
  const api::PoemReadingData& r = *lab.reading;
  // Its source, as the header above the heatmaps says it.
  char source[512];
  if (lab.poem >= 0 && lab.summary)
    std::snprintf(source, sizeof source, tr("poem.source.held_out.fmt"), poem_label(*lab.summary, lab.poem).c_str());
  else
    std::snprintf(source, sizeof source, "%s", tr("poem.source.own"));
  std::string summary = source;
  if (const std::vector<api::PoemHead>* heads = poem_heads_shown(lab))
    for (const api::PoemHead& h : *heads) summary += " " + poem_head_sentence(h) + ".";
  // The selected head's heatmap, and the ten likeliest next characters. While
  // the model being trained is shown and runs, its table (up to 65 x 65)
  // would change four times a second: no one can read that, and laying it
  // out took the page's thread 16 ms a time. It follows when training pauses.
  const bool table_waits = lab.show_trained && lab.training_running;
  if (table_waits) summary += " " + std::string(tr("poem.a11y.training_table"));
  summary += " " + poem_sink_heads_text(lab);
  if (const std::string sink = poem_sink_text(lab); !sink.empty()) summary += " " + sink;
  out.summary = summary;
  out.only_heatmap = table_waits ? A11yView::kNoHeatmap : "poem_l" + std::to_string(lab.layer) + "h" + std::to_string(lab.head);
  A11yTable next;
  const int q = poem_query(lab);
  char caption[160];
  std::snprintf(caption, sizeof caption, tr("poem.next.fmt"), q, token_text(r, q).c_str());
  next.caption = caption;
  next.columns = {tr("poem.next.char"), tr("poem.next.p")};
  for (int i = 0; i < api::kPoemTop; ++i) {
    const std::size_t at = std::size_t(q) * api::kPoemTop + std::size_t(i);
    next.rows.push_back(std::to_string(i + 1));
    next.text.push_back({poem_char_text(r.top_chars[at]), format("%.3g %%", double(r.top_p[at]) * 100.0)});
  }
  out.tables.push_back(std::move(next));
}

}  // namespace attn::ui
