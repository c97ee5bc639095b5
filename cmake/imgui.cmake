# Dear ImGui 1.86 as a static library, built from the sources in IMGUI_DIR
# (scripts/setup.sh extracts them from Debian's `imgui` source package; the
# Debian binary package has no WebAssembly build, so both builds compile it here).
#
#   attn_imgui   core + tables + widgets + GLFW and OpenGL3 backends
#
# The demo window is compiled out (IMGUI_DISABLE_DEMO_WINDOWS): it would add
# ~290 KB to the wasm and the app never shows it. Characters are 32-bit
# (IMGUI_USE_WCHAR32): with 1.86's default 16-bit ImWchar a text field turns
# every character above U+FFFF (an emoji, a rare CJK ideograph) into U+FFFD.
if(NOT EXISTS "${IMGUI_DIR}/imgui.h")
  message(FATAL_ERROR "Dear ImGui not found in IMGUI_DIR=${IMGUI_DIR}: run scripts/setup.sh")
endif()

add_library(attn_imgui STATIC
  "${IMGUI_DIR}/imgui.cpp"
  "${IMGUI_DIR}/imgui_draw.cpp"
  "${IMGUI_DIR}/imgui_tables.cpp"
  "${IMGUI_DIR}/imgui_widgets.cpp"
  "${IMGUI_DIR}/backends/imgui_impl_glfw.cpp"
  "${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp"
)
# SYSTEM: third-party headers must not trip the project's warning flags.
target_include_directories(attn_imgui SYSTEM PUBLIC "${IMGUI_DIR}" "${IMGUI_DIR}/backends")
target_compile_definitions(attn_imgui PUBLIC IMGUI_DISABLE_DEMO_WINDOWS IMGUI_USE_WCHAR32)

if(ATTN_SANITIZE)
  # 1.86's GL loader stores its 54th function pointer one past the 53-entry
  # array it is declared in (inside a union that has room: ocornut/imgui#4830,
  # fixed in 1.87). UBSan's bounds check would stop every desktop test there.
  set_source_files_properties("${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp" PROPERTIES
                              COMPILE_OPTIONS "-fno-sanitize=bounds")
endif()

if(EMSCRIPTEN)
  # WebGL2 is OpenGL ES 3.0: the 1.86 backend needs to be told (it would pick
  # its desktop loader otherwise). GLFW comes from Emscripten's own port.
  target_compile_definitions(attn_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)
  target_link_options(attn_imgui PUBLIC -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2)
  target_compile_options(attn_imgui PRIVATE -Os)
  attn_lto(attn_imgui)  # linked by the main module alone (cmake/lto.cmake)
else()
  find_package(glfw3 3.3 QUIET)
  if(TARGET glfw)
    set(ATTN_GLFW_TARGET glfw)
  else()
    find_package(PkgConfig REQUIRED)
    pkg_check_modules(GLFW3 REQUIRED IMPORTED_TARGET glfw3)
    set(ATTN_GLFW_TARGET PkgConfig::GLFW3)
  endif()
  set(OpenGL_GL_PREFERENCE GLVND)
  find_package(OpenGL REQUIRED)
  target_link_libraries(attn_imgui PUBLIC ${ATTN_GLFW_TARGET} OpenGL::GL ${CMAKE_DL_LIBS})
endif()
