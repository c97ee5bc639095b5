// The learned-heads view's files (its Export popup, the accessible copy's
// export buttons, the desktop's --export): a reading of the poem model as
//   poem_weights.csv   layer,head,query,key,query_char,key_char,weight: every head's weights
//   poem_weights.json  {"text", "tokens", "layers": [{"heads": [T x T]}]} (as compute({poem}) names them)
//   poem_next.csv      position,char,loss,rank,next_char,p: each position's ten likeliest next characters
//   poem_next.json     {"text", "tokens", "next": [[{"char", "p"} x 10] x T], "loss"}
#pragma once

#include <string>

#include "api/explorer/export_tables.hpp"
#include "api/poem/poem_wire.hpp"

namespace attn::api {

// False when `what` is none of the four.
bool poem_export(const PoemReadingData& reading, const std::string& text, const std::string& what, ExportFile* out);

}  // namespace attn::api
