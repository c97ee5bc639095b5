// Framebuffer -> PNG; see screenshot.hpp.
#include "gfx/screenshot.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

#include "gfx/gl.hpp"

// The one translation unit that compiles stb_image_write.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace attn::gfx {

bool save_framebuffer_png(const std::string& path, int width, int height, std::string* error) {
  if (width <= 0 || height <= 0) {
    if (error) *error = "empty framebuffer";
    return false;
  }
  const std::size_t row_bytes = std::size_t(width) * 3;
  std::vector<uint8_t> pixels(row_bytes * std::size_t(height));

  GLint previous_framebuffer = 0, previous_alignment = 4;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previous_framebuffer);
  glGetIntegerv(GL_PACK_ALIGNMENT, &previous_alignment);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);  // RGB rows are not 4-byte multiples
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  glPixelStorei(GL_PACK_ALIGNMENT, previous_alignment);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(previous_framebuffer));

  // GL rows start at the bottom; PNG rows start at the top.
  std::vector<uint8_t> row(row_bytes);
  for (int y = 0; y < height / 2; ++y) {
    uint8_t* top = pixels.data() + std::size_t(y) * row_bytes;
    uint8_t* bottom = pixels.data() + std::size_t(height - 1 - y) * row_bytes;
    std::memcpy(row.data(), top, row_bytes);
    std::memcpy(top, bottom, row_bytes);
    std::memcpy(bottom, row.data(), row_bytes);
  }
  if (!stbi_write_png(path.c_str(), width, height, 3, pixels.data(), int(row_bytes))) {
    if (error) *error = "cannot write " + path;
    return false;
  }
  return true;
}

bool save_rgba_png(const std::string& path, int width, int height, const unsigned char* rgba, std::string* error) {
  if (width <= 0 || height <= 0 || !stbi_write_png(path.c_str(), width, height, 4, rgba, width * 4)) {
    if (error) *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace attn::gfx
