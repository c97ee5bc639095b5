// Export requests: the files (api/explorer/export_tables.hpp) and the PNG of the open
// view a reader asks for, queued in AppState for the platform to save (a
// download in the browser, a file in --export-dir on the desktop). The
// popup (shell/export.hpp), the accessible copy's buttons and the desktop's
// --export flag all ask through request_export.
#pragma once

#include <string>

#include "api/explorer/export_tables.hpp"
#include "core/explorer/explorer.hpp"
#include "ui/state/views.hpp"

namespace attn::ui {

struct AppState;

using api::ExportFile;
using api::ExportFormat;
using api::ExportItem;
using api::ExportTable;
using api::export_csv;
using api::export_file;
using api::export_file_name;
using api::export_items;
using api::export_json;
using api::export_table;

// The PNG's name for the open view (result: the explorer's, may be null).
std::string export_png_name(View view, const ExplorerResult* result);

// Queues one export by file name without the mask part, as the desktop's
// --export flag takes it: "weights_head0.csv", "average.json" or "png".
// Needs state.result for the matrices. False (and nothing queued) if unknown.
bool request_export(AppState& state, const std::string& what);

}  // namespace attn::ui
