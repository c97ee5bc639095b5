// Browser downloads; see web_download.hpp.
#include "platform/web_download.hpp"

#include <emscripten.h>

namespace attn::platform {
namespace {

// Module.attnSaveBlob(blob, name): clicks a temporary <a download>; the URL
// is revoked once the browser has had time to start the download.
void define_save_blob() {
  EM_ASM({
    if (Module.attnSaveBlob) return;
    Module.attnSaveBlob = (blob, name) => {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = name;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    };
  });
}

}  // namespace

void download(const std::string& name, const char* mime, const std::string& bytes) {
  define_save_blob();
  // slice copies the bytes out of the wasm heap, so the string may go at once.
  EM_ASM({ Module.attnSaveBlob(new Blob([HEAPU8.slice($0, $0 + $1)], {type: UTF8ToString($2)}), UTF8ToString($3)); },
         bytes.data(), bytes.size(), mime, name.c_str());
}

void download_png(const std::string& name, const RgbaImage& image) {
  define_save_blob();
  // toBlob answers later: the pixels and the name are copied now.
  EM_ASM({
    const canvas = document.createElement("canvas");
    canvas.width = $2;
    canvas.height = $3;
    const pixels = new Uint8ClampedArray(HEAPU8.slice($1, $1 + $2 * $3 * 4).buffer);
    canvas.getContext("2d").putImageData(new ImageData(pixels, $2, $3), 0, 0);
    const name = UTF8ToString($0);
    canvas.toBlob((blob) => Module.attnSaveBlob(blob, name), "image/png");
  }, name.c_str(), image.rgba.data(), image.width, image.height);
}

}  // namespace attn::platform
