// Whether a frame would draw exactly the pixels the canvas already shows.
//
// The page draws a frame after every input event and a few more for Dear
// ImGui to settle (web/frames.js); most of those frames are the same picture.
// Drawing one anyway costs the reader's machine the whole canvas again: the
// WebGL draw, then the browser's compositing of the new canvas (in software,
// without a GPU, a read-back of every pixel). A frame whose draw data, the
// textures it samples, clear colour and size are all those of the last frame
// drawn is left undrawn: a WebGL canvas nobody draws to keeps showing its
// last picture, and the browser composites nothing new.
#pragma once

#include <cstdint>
#include <vector>

struct ImDrawData;

namespace attn::platform {

// What else a frame's pixels depend on besides its draw data.
struct FrameInputs {
  int width = 0, height = 0;         // the canvas backbuffer
  float clear[4] = {0, 0, 0, 0};     // the theme's page colour
  uint64_t textures_drawn = 0;       // heatmap textures drawn anew so far (plot::Context)
  int font_builds = 0;               // font atlas builds so far (fonts.hpp)
};

class FrameCache {
 public:
  // True when this frame is the last one drawn, pixel for pixel; else it
  // becomes the one remembered (the caller draws it).
  bool unchanged(const ImDrawData& data, const FrameInputs& inputs);
  // The canvas no longer shows the last frame (the WebGL context was lost).
  void forget() { last_.clear(); }

 private:
  std::vector<unsigned char> last_, now_;  // each frame written out byte by byte
};

}  // namespace attn::platform
