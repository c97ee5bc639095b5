// Browser downloads: the page has no file system, so whatever the reader
// saves (the debug view's matrix dump, the export popup's files and PNG)
// leaves as a download: a Blob behind a temporary <a download> link.
#pragma once

#include <string>

#include "platform/export_png.hpp"

namespace attn::platform {

// Offers `bytes` as a file called `name` of type `mime` ("text/csv", ...).
void download(const std::string& name, const char* mime, const std::string& bytes);

// Encodes the image as PNG in the browser (a 2D canvas's toBlob, so the wasm
// carries no PNG encoder) and offers it as a download called `name`.
void download_png(const std::string& name, const RgbaImage& image);

}  // namespace attn::platform
