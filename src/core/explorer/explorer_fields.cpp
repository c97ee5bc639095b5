// The explorer config's field table; see explorer_fields.hpp.
#include "explorer_fields.hpp"

namespace attn {

const std::vector<ExplorerField>& explorer_fields() {
  using C = ExplorerConfig;
  using L = ExplorerLimits;
  using S = FieldScope;
  static const std::vector<ExplorerField> fields = {
      {"text", &C::text, S::TextInput, true, 0, 0, "a string",
       ATTN_DOC("The sentence: words and punctuation become tokens, Chinese is split per character.")},
      {"experiment", &C::input, S::ExperimentInput, true, 0, 0, "`\"fig41\"` or `\"causal\"`",
       ATTN_DOC("One of the chapter's experiments instead of a text: Figure 4.1's 8 synthetic tokens with 4 heads, "
       "or the causal-mask companion's 8 random tokens with 1 head.")},
      {"d_model", &C::d_model, S::Text, true, L::kMinDModel, L::kMaxDModel, "",
       ATTN_DOC("Width of the token embeddings X.")},
      {"heads", &C::heads, S::Text, true, 1, L::kMaxHeads, "dividing d_model",
       ATTN_DOC("Attention heads; each gets d_model / heads columns (d_head).")},
      {"seed", &C::seed, S::Text, true, 0, 0, "an integer >= 0",
       ATTN_DOC("Seeds the embeddings and the random projections.")},
      {"projection", &C::projection, S::Text, true, 0, 0,
       "`\"random\"`, `\"identity\"`, `\"chapter\"` or `\"trained\"`",
       ATTN_DOC("How Q, K, V come from X: seeded Xavier W_q, W_k, W_v; Q = K = V = X; Figure 4.1's W_q, W_k; or "
       "the scaling lab's model (d_k = d_model), retrained from the trained_* recipe.")},
      {"positions", &C::positions, S::Text, true, 0, 0, "`true` or `false`",
       ATTN_DOC("Adds sinusoidal position encodings to X.")},
      {"shuffle", &C::shuffle, S::Text, true, 0, 0, "an integer >= 0",
       ATTN_DOC("0, or the seed of a shuffle of the text's tokens (pads stay last): without positions the weights "
       "and outputs are the original's, moved with their tokens.")},
      {"trained_steps", &C::trained_steps, S::Trained, true, 1, L::kMaxTrainedSteps, "",
       ATTN_DOC("Training steps of the trained model (steps x d_model^2 <= 2000 x 32^2 when it must be retrained).")},
      {"trained_scaled", &C::trained_scaled, S::Trained, true, 0, 0, "`true` or `false`",
       ATTN_DOC("Whether the trained model divided its scores by sqrt(d_k).")},
      {"trained_lr", &C::trained_learning_rate, S::Trained, true, 0, 0, "a number > 0",
       ATTN_DOC("The trained model's Adam learning rate.")},
      {"temperature", &C::temperature, S::Any, false, L::kMinTemperature, L::kMaxTemperature, "",
       ATTN_DOC("Divides the scaled scores: T > 1 flattens the weights, T < 1 sharpens them.")},
      {"scale", &C::scale, S::Any, false, 0, 0, "`\"sqrt\"`, `\"none\"` or a number in (0, 1000]",
       ATTN_DOC("What the scores Q K^T are multiplied by: 1 / sqrt(d_head), 1, or this factor.")},
      {"mask", MaskMembers{}, S::Any, false, 0, 0,
       "`\"none\"`, `\"causal\"`, `\"padding\"`, `{\"pad\": k}` or `[[0/1, ...], ...]`",
       ATTN_DOC("Which keys each query may see: all; keys up to itself; all but [PAD] tokens (the text's own, or "
       "k appended); or one row of 0/1 per token (1 = may attend).")},
  };
  return fields;
}

bool field_applies(const ExplorerField& field, bool experiment) {
  switch (field.scope) {
    case FieldScope::ExperimentInput: return experiment;
    case FieldScope::Any: return true;
    case FieldScope::TextInput:
    case FieldScope::Text:
    case FieldScope::Trained: return !experiment;
  }
  return false;
}

namespace {

bool same_scale(const Scale& a, const Scale& b) {
  return a.kind == b.kind && (a.kind != Scale::Kind::Value || a.value == b.value);
}

bool same_mask(const ExplorerConfig& a, const ExplorerConfig& b) {
  if (a.mask != b.mask || a.pads != b.pads) return false;
  if (a.mask != Mask::Kind::Custom) return true;
  return a.custom_mask.rows() == b.custom_mask.rows() && a.custom_mask.cols() == b.custom_mask.cols() &&
         (a.custom_mask == b.custom_mask).all();
}

bool same_field(const ExplorerField& field, const ExplorerConfig& a, const ExplorerConfig& b) {
  return std::visit(
      [&](auto member) {
        using M = decltype(member);
        if constexpr (std::is_same_v<M, MaskMembers>) return same_mask(a, b);
        else if constexpr (std::is_same_v<M, Scale ExplorerConfig::*>) return same_scale(a.*member, b.*member);
        else return a.*member == b.*member;
      },
      field.member);
}

}  // namespace

bool same_config(const ExplorerConfig& a, const ExplorerConfig& b) {
  for (const ExplorerField& field : explorer_fields())
    if (!same_field(field, a, b)) return false;
  return true;
}

bool same_inputs(const ExplorerConfig& a, const ExplorerConfig& b, const std::vector<std::string>& a_tokens,
                 const std::vector<std::string>& b_tokens) {
  if (a.input != b.input) return false;
  if (a.input != Input::Text) return true;  // an experiment fixes its own X and projections
  if (a_tokens != b_tokens) return false;   // the text (and any appended pads), as tokens
  for (const ExplorerField& field : explorer_fields())
    if (field.shapes_inputs && field.scope != FieldScope::TextInput &&
        (field.scope != FieldScope::Trained || a.projection == Projection::Trained) && !same_field(field, a, b))
      return false;
  return true;
}

}  // namespace attn
