#include "api/poem/page_training.hpp"

namespace attn::api {

std::vector<std::string> page_slice(const std::vector<std::string>& train_poems) {
  std::vector<std::string> slice;
  for (std::size_t i = 0; i < train_poems.size(); i += std::size_t(kPageSliceEvery)) slice.push_back(train_poems[i]);
  return slice;
}

poem::PoemTrainConfig page_train_config(const poem::GptConfig& shape, uint64_t seed) {
  poem::PoemTrainConfig c;
  c.model = shape;
  // The cosine runs over 4,000 steps so the rate is still near its peak when
  // the previous-character head forms (natively, seeds 1-3: steps 850, 1050,
  // 650); over 2,000 it had decayed by then and the head formed at step 1,400.
  c.steps = 4000;
  c.batch = 16;
  c.learning_rate = 1e-2f;
  c.warmup = 30;
  c.seed = seed;
  c.use_modern = false;
  c.line_start_share = 1.0f;
  c.dropout = 0.0f;
  c.threads = 1;  // the page's workers are the threads
  return c;
}

}  // namespace attn::api
