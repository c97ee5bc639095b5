// The frame cache; see frame_cache.hpp.
#include "platform/frame_cache.hpp"

#include <cstddef>

#include <imgui.h>

namespace attn::platform {

namespace {

template <typename T>
void put(std::vector<unsigned char>& out, const T& value) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
  out.insert(out.end(), bytes, bytes + sizeof value);
}

template <typename T>
void put_all(std::vector<unsigned char>& out, const ImVector<T>& items) {
  put(out, items.Size);
  const auto* bytes = reinterpret_cast<const unsigned char*>(items.Data);
  out.insert(out.end(), bytes, bytes + sizeof(T) * std::size_t(items.Size));
}

}  // namespace

bool FrameCache::unchanged(const ImDrawData& data, const FrameInputs& inputs) {
  now_.clear();
  put(now_, inputs.width);
  put(now_, inputs.height);
  put(now_, inputs.clear);
  put(now_, inputs.textures_drawn);
  put(now_, inputs.font_builds);
  put(now_, data.DisplayPos);
  put(now_, data.DisplaySize);
  put(now_, data.FramebufferScale);
  put(now_, data.CmdListsCount);
  for (int i = 0; i < data.CmdListsCount; ++i) {
    const ImDrawList& list = *data.CmdLists[i];
    put_all(now_, list.VtxBuffer);
    put_all(now_, list.IdxBuffer);
    put(now_, list.CmdBuffer.Size);
    // Field by field: ImDrawCmd has padding, whose bytes are not the command's.
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      put(now_, cmd.ClipRect);
      put(now_, cmd.TextureId);
      put(now_, cmd.VtxOffset);
      put(now_, cmd.IdxOffset);
      put(now_, cmd.ElemCount);
      put(now_, cmd.UserCallback);
      put(now_, cmd.UserCallbackData);
    }
  }
  if (now_ == last_) return true;
  last_.swap(now_);
  return false;
}

}  // namespace attn::platform
