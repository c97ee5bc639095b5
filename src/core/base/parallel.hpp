// Work spread over the machine's cores: the poem model's training shards.
// The callers make the result independent of how the work was spread (each
// index writes only its own output), so the thread count never changes a bit.
#pragma once

#include <functional>

namespace attn {

// The threads parallel_for uses for `threads` = 0: one per core (1 in wasm).
int hardware_threads();

// Runs work(i) once for every i in 0..count-1 on `threads` threads (0: one
// per core), and returns when all have run. The wasm build has no threads
// and runs them in order on the caller's.
void parallel_for(int count, int threads, const std::function<void(int)>& work);

}  // namespace attn
