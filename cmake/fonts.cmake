# The CJK font: a subset of WenQuanYi Micro Hei made at build time, so the
# app can draw Chinese (tokens, typed sentences, the zh interface) without a
# font binary in the repository.
#
#   source   /usr/share/fonts/truetype/wqy/wqy-microhei.ttc (Debian fonts-wqy-microhei,
#            installed by scripts/setup.sh). Licence: Apache-2.0, or GPLv3 with the
#            font embedding exception; both allow shipping a subset with the app.
#   subset   face 0 of the collection, TrueType (glyf) outlines as stb_truetype 1.20
#            in Dear ImGui 1.86 reads them, no hinting or OpenType layout (ImGui uses
#            neither): every GB2312 character (its 6,763 hanzi and rows 1-9: CJK and
#            full-width punctuation, kana, Greek, Cyrillic, math signs), plus ASCII,
#            general punctuation, box drawing and geometric shapes (U+25A1 is the
#            missing-glyph box), CJK symbols and punctuation (U+3000-303F) and
#            full-width forms (U+FF00-FFEF). The GB2312 list comes from Python's own
#            gb2312 codec at build time, not from a list kept here.
#   output   <dir>/cjk.ttf and <dir>/cjk.ttf.gz (gzip -9, mtime 0, for browsers that
#            decompress it themselves: web/fonts.js), never committed.
#
# This file has two roles:
#   include(cmake/fonts.cmake)        defines attn_add_cjk_font(<target> <dir>)
#   cmake -P cmake/fonts.cmake ...    (build step) writes the files
# fontTools runs as `/usr/bin/python3 -m fontTools.subset`: Debian's
# python3-fonttools installs no pyftsubset on PATH here, and the python3 first
# on PATH may be another interpreter without fontTools.

set(ATTN_CJK_FONT_SOURCE "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
    CACHE FILEPATH "The font collection the CJK subset is cut from (Debian fonts-wqy-microhei)")
set(ATTN_FONT_PYTHON "/usr/bin/python3" CACHE FILEPATH "Python with fontTools (Debian python3-fonttools)")

if(CMAKE_SCRIPT_MODE_FILE)
  # ---- generator mode: FONT_SOURCE, PYTHON, OUT_DIR --------------------------
  file(MAKE_DIRECTORY "${OUT_DIR}")
  set(unicodes_file "${OUT_DIR}/cjk-unicodes.txt")
  set(ttf "${OUT_DIR}/cjk.ttf")
  # GB2312 code (0xA0 + row, 0xA0 + cell): rows 16-87 are the hanzi (6,763 of
  # them, row 55 is short), rows 1-9 the symbols. Codes the codec does not
  # map are gaps in the standard. (No semicolons: this is a CMake list item.)
  set(gb2312_py [=[
import sys
def row_chars(rows):
    out = set()
    for row in rows:
        for cell in range(1, 95):
            try:
                out.add(ord(bytes([0xA0 + row, 0xA0 + cell]).decode('gb2312')))
            except UnicodeDecodeError:
                pass
    return out
hanzi = row_chars(range(16, 88))
if len(hanzi) != 6763:
    sys.exit('gb2312 codec gave %d hanzi, not 6763' % len(hanzi))
with open(sys.argv[1], 'w') as f:
    f.write('\n'.join('U+%04X' % c for c in sorted(hanzi | row_chars(range(1, 10)))) + '\n')
]=])
  execute_process(COMMAND "${PYTHON}" -c "${gb2312_py}" "${unicodes_file}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fonts.cmake: listing GB2312 with ${PYTHON} failed (${rc})")
  endif()
  # Comma-separated ranges: one argument, no CMake list splitting.
  set(extra "U+0020-007E,U+2000-206F,U+2500-257F,U+25A0-25FF,U+3000-303F,U+FF00-FFEF")
  execute_process(
    COMMAND "${PYTHON}" -m fontTools.subset "${FONT_SOURCE}" --font-number=0
            "--unicodes-file=${unicodes_file}" "--unicodes=${extra}"
            --no-hinting --layout-features= --drop-tables+=FFTM,GSUB,GPOS,GDEF,vhea,vmtx
            "--output-file=${ttf}.tmp"
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fonts.cmake: fontTools.subset failed (${rc}): ${err}\n"
                        "Install python3-fonttools and fonts-wqy-microhei (scripts/setup.sh).")
  endif()
  # The subset silently drops characters the font lacks: check every GB2312
  # character made it, then write the gzip copy (mtime 0: same bytes every build).
  set(check_py [=[
import gzip, sys
from fontTools.ttLib import TTFont
ttf, unicodes = sys.argv[1], sys.argv[2]
want = [int(line[2:], 16) for line in open(unicodes) if line.strip()]
cmap = TTFont(ttf + '.tmp').getBestCmap()
missing = [c for c in want if c not in cmap]
if missing:
    sys.exit('the subset lacks %d GB2312 characters, e.g. %s' % (len(missing), ' '.join('U+%04X' % c for c in missing[:8])))
data = open(ttf + '.tmp', 'rb').read()
open(ttf + '.gz', 'wb').write(gzip.compress(data, 9, mtime=0))
print('cjk.ttf: %d glyphs for %d characters, %d bytes, %d gzipped' % (TTFont(ttf + '.tmp')['maxp'].numGlyphs, len(cmap), len(data), len(gzip.compress(data, 9, mtime=0))))
]=])
  execute_process(COMMAND "${PYTHON}" -c "${check_py}" "${ttf}" "${unicodes_file}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fonts.cmake: checking the subset failed (${rc})")
  endif()
  file(RENAME "${ttf}.tmp" "${ttf}")
  file(REMOVE "${unicodes_file}")  # the web build serves OUT_DIR: leave only the fonts there
  return()
endif()

# ---- include mode ------------------------------------------------------------
if(NOT EXISTS "${ATTN_CJK_FONT_SOURCE}")
  message(FATAL_ERROR "${ATTN_CJK_FONT_SOURCE} not found: run scripts/setup.sh (fonts-wqy-microhei)")
endif()

# attn_add_cjk_font(<target> <dir>): a target that writes <dir>/cjk.ttf and
# <dir>/cjk.ttf.gz, rebuilt when the source font or this file changes.
function(attn_add_cjk_font target dir)
  add_custom_command(
    OUTPUT "${dir}/cjk.ttf" "${dir}/cjk.ttf.gz"
    COMMAND "${CMAKE_COMMAND}" "-DFONT_SOURCE=${ATTN_CJK_FONT_SOURCE}" "-DPYTHON=${ATTN_FONT_PYTHON}"
            "-DOUT_DIR=${dir}" -P "${CMAKE_SOURCE_DIR}/cmake/fonts.cmake"
    DEPENDS "${ATTN_CJK_FONT_SOURCE}" "${CMAKE_SOURCE_DIR}/cmake/fonts.cmake"
    COMMENT "Subsetting the CJK font (GB2312) into ${dir}/cjk.ttf"
    VERBATIM)
  add_custom_target(${target} DEPENDS "${dir}/cjk.ttf" "${dir}/cjk.ttf.gz")
endfunction()
