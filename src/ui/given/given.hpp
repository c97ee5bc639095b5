// The view "given": attention weights computed elsewhere (AppState::given: a
// notebook's show_heatmaps, a Hugging Face model's attentions, a URL's
// `given`), drawn with the lab's heatmaps as they are. Nothing here computes
// weights; the lab only checked them (core/given/given_weights.hpp).
#pragma once

namespace attn::ui {

struct AppState;
struct A11yView;

void given_view(AppState& state);
void describe_given(const AppState& state, A11yView& out);

}  // namespace attn::ui
