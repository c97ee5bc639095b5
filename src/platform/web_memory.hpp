// The browser's memory probe for check_memory_available (core/explorer/explorer.hpp):
// a browser may refuse to grow wasm memory (a phone short of memory, a tab at
// its limit), so a big recompute asks first, and grows memory to make room.
#pragma once

namespace attn::platform {

// Room in wasm memory for what malloc holds now plus `bytes`.
bool wasm_memory_room(long long bytes);

}  // namespace attn::platform
