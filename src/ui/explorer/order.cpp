// Order: Shuffle and Original order in the set-up panel, and what the shuffle
// showed, measured (core/explorer/order.hpp): without position encodings the
// weights and outputs are the original's, moved with their tokens.
#include <string>

#include <imgui.h>

#include "core/explorer/order.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/state/controls.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

// The original places in the shuffled order, from 1: "4 6 3 1 5 2".
std::string order_places(const OrderCheck& o) {
  std::string places;
  for (std::size_t i = 0; i < o.order.size(); ++i) places += (i ? " " : "") + std::to_string(o.order[i] + 1);
  return places;
}

}  // namespace

void shuffle_controls(AppState& state) {
  ExplorerConfig& c = state.config;
  const ControlRow& row = control_row("shuffle");
  title_with_help(tr(row.label_key), tr(row.help_key));
  // Each press draws another order (the next seed); 0 is the sentence's own.
  if (ImGui::Button(tr("setup.shuffle.button"))) c.shuffle = c.shuffle + 1;
  record_control(state, row.field);
  same_line_if_fits(ImGui::CalcTextSize(tr("setup.shuffle.restore")).x + ImGui::GetStyle().FramePadding.x * 2);
  ImGui::BeginDisabled(c.shuffle == 0);
  if (ImGui::Button(tr("setup.shuffle.restore"))) c.shuffle = 0;
  ImGui::EndDisabled();
  record_control(state, "shuffle_restore");
  if (!state.result || state.result->config.shuffle == 0) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (!state.order_check) {
    ui::text_wrapped("%s", state.order_error.c_str());
    ImGui::PopStyleColor();
    return;
  }
  // The numbers in a table, not in the sentence: ImGui wraps Chinese text
  // anywhere, a number's decimal point included.
  const OrderCheck& o = *state.order_check;
  ui::text_wrapped("%s", format(tr("order.shuffled.fmt"), order_places(o).c_str()).c_str());
  if (ImGui::BeginTable("##order", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn(tr("order.table.corner"));
    ImGui::TableSetupColumn(tr("order.table.weights"));
    ImGui::TableSetupColumn(tr("order.table.outputs"));
    ImGui::TableHeadersRow();
    const struct {
      const char* key;
      double weights, outputs;
    } rows[] = {{"order.table.without", o.weights_without, o.outputs_without},
                {"order.table.with", o.weights_with, o.outputs_with}};
    for (const auto& r : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ui::text(tr(r.key));
      ImGui::TableNextColumn();
      ui::textf("%.2g", r.weights);
      ImGui::TableNextColumn();
      ui::textf("%.2g", r.outputs);
    }
    ImGui::EndTable();
  }
  ui::text_wrapped("%s", tr("order.conclusion"));
  if (o.mask_orders) ui::text_wrapped("%s", tr("order.mask"));
  ImGui::PopStyleColor();
}

void check_shown_order(AppState& state) {
  state.order_check.reset();
  state.order_error.clear();
  state.order_labels.clear();
  const ExplorerResult& r = *state.result;
  if (r.config.input != Input::Text || r.config.shuffle == 0) return;
  // A trained projection's weights are the shown result's: the four runs need not retrain them.
  const MultiHeadWeights* trained = r.config.projection == Projection::Trained ? &r.weights : nullptr;
  OrderCheck check;
  state.order_error = check_order(r.config, check, trained);
  if (!state.order_error.empty()) return;
  for (std::size_t i = 0; i < r.tokens.size() && i < check.order.size(); ++i)
    state.order_labels.push_back(r.tokens[i] + "_" + std::to_string(check.order[i] + 1));  // "cat_2", as x_t
  state.order_check = std::move(check);
}

std::string order_sentence(const AppState& state) {
  if (!state.result || state.result->config.shuffle == 0) return "";
  if (!state.order_check) return state.order_error;
  const OrderCheck& o = *state.order_check;
  std::string out = format(tr("order.shuffled.fmt"), order_places(o).c_str());
  out += " " + format(tr("order.without.fmt"), o.weights_without, o.outputs_without);
  out += " " + format(tr("order.with.fmt"), o.weights_with, o.outputs_with);
  if (o.mask_orders) out += std::string(" ") + tr("order.mask");
  return out;
}

}  // namespace attn::ui
