// Screenshots of the default framebuffer (native builds only): used by
// `attention_app --screenshot FILE` so a person or a test can look at a frame.
#pragma once

#include <string>

namespace attn::gfx {

// Reads width x height pixels of the default framebuffer (call after the
// frame is drawn, before swapping buffers), flips them to top-down rows and
// writes an RGB PNG. Returns false and fills *error on failure.
bool save_framebuffer_png(const std::string& path, int width, int height, std::string* error);

// Writes width x height RGBA pixels (rows top to bottom) as a PNG: the
// export's picture of the view, drawn offscreen (platform/export_png.hpp).
bool save_rgba_png(const std::string& path, int width, int height, const unsigned char* rgba, std::string* error);

}  // namespace attn::gfx
