// The wasm heap probe; see web_memory.hpp.
#include "platform/web_memory.hpp"

#include <emscripten/heap.h>
#include <malloc.h>

#include <algorithm>
#include <cstddef>

namespace attn::platform {

bool wasm_memory_room(long long bytes) {
  // Growing memory to exactly what is needed keeps the heap as small as the
  // recompute itself would make it (a trial malloc of `bytes` would need
  // them in one piece).
  const std::size_t top = *emscripten_get_sbrk_ptr(), size = emscripten_get_heap_size();
  if (bytes > static_cast<long long>(emscripten_get_heap_max() - top)) return false;
  if (top + std::size_t(bytes) <= size) return true;
  // Malloc's free blocks count as room too (mallinfo walks the whole heap,
  // so only when the memory above the heap's top is not enough).
  const std::size_t free_bytes = std::size_t(mallinfo().fordblks);
  const std::size_t needed = top - std::min(top, free_bytes) + std::size_t(bytes);
  return needed <= size || emscripten_resize_heap(needed);
}

}  // namespace attn::platform
