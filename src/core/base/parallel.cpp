// parallel_for: a few threads taking indices from one counter.
#include "parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace attn {

int hardware_threads() {
#ifdef __EMSCRIPTEN__
  return 1;
#else
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
#endif
}

#ifndef __EMSCRIPTEN__
namespace {

// Helper threads kept from one call to the next. A thread started per call
// began every training step with empty thread_local scratch (the kernels'
// packed panels, some megabytes) that the system then faulted in anew.
class Pool {
 public:
  // Runs work(0..count-1) on the caller's thread and up to n - 1 helpers;
  // false, having run nothing, when the pool is busy (a call from another
  // thread, or from inside a work item).
  bool run(int count, int n, const std::function<void(int)>& work) {
    if (in_pool) return false;  // (try_lock by the mutex's owner would be undefined)
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      while (static_cast<int>(helpers_) < n - 1) {
        std::thread([this, before = generation_] { serve(before); }).detach();
        ++helpers_;
      }
      work_ = &work;
      count_ = count;
      next_ = 0;
      seats_ = n - 1;
      ++generation_;
    }
    wake_.notify_all();
    take();
    std::unique_lock<std::mutex> lock(mutex_);
    seats_ = 0;  // a helper that wakes only now finds nothing to do
    done_.wait(lock, [this] { return active_ == 0; });
    return true;
  }

 private:
  void take() {
    in_pool = true;
    for (int i = next_++; i < count_; i = next_++) (*work_)(i);
    in_pool = false;
  }
  // A helper, from the call before the one that started it.
  void serve(unsigned long seen) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      if (seats_ == 0) continue;
      --seats_;
      ++active_;
      lock.unlock();
      take();
      lock.lock();
      if (--active_ == 0) done_.notify_all();
    }
  }

  static thread_local bool in_pool;
  std::mutex busy_;   // one call at a time
  std::mutex mutex_;  // the fields below
  std::condition_variable wake_, done_;
  unsigned long generation_ = 0;
  unsigned helpers_ = 0;
  int seats_ = 0, active_ = 0, count_ = 0;
  std::atomic<int> next_{0};
  const std::function<void(int)>* work_ = nullptr;
};
thread_local bool Pool::in_pool = false;

// Never destroyed: its helpers wait until the program ends.
Pool& pool() {
  static Pool* p = new Pool;
  return *p;
}

}  // namespace
#endif

void parallel_for(int count, int threads, const std::function<void(int)>& work) {
  const int n = std::min(count, threads > 0 ? threads : hardware_threads());
#ifdef __EMSCRIPTEN__
  (void)n;
  for (int i = 0; i < count; ++i) work(i);
#else
  if (n <= 1) {
    for (int i = 0; i < count; ++i) work(i);
    return;
  }
  if (pool().run(count, n, work)) return;
  // The pool is busy: threads of this call's own.
  std::atomic<int> next{0};
  const auto run = [&] {
    for (int i = next++; i < count; i = next++) work(i);
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < n; ++t) helpers.emplace_back(run);
  run();
  for (std::thread& h : helpers) h.join();
#endif
}

}  // namespace attn
