// Every string a reader sees goes through tr("key"), so the zh/en tables
// live in one place (strings.cpp). Unknown keys come back unchanged, which
// makes a missing entry visible on screen instead of crashing.
// Some entries are printf formats (marked "fmt" in their key).
#pragma once

namespace attn::ui {

const char* tr(const char* key);

}  // namespace attn::ui
