# System dependencies from Debian packages (scripts/setup.sh installs them).
# Under Emscripten /usr/include must not be on the include path (its libc
# headers would shadow Emscripten's), so header-only libraries are exposed
# through a private folder of symlinks in the build tree.
set(ATTN_SYSDEPS "${CMAKE_BINARY_DIR}/sysdeps/include")
file(MAKE_DIRECTORY "${ATTN_SYSDEPS}")
foreach(dep Eigen nlohmann doctest stb)
  if(dep STREQUAL "Eigen")
    set(src "/usr/include/eigen3/Eigen")
  else()
    set(src "/usr/include/${dep}")
  endif()
  if(NOT EXISTS "${src}")
    message(FATAL_ERROR "${src} not found: run scripts/setup.sh")
  endif()
  if(NOT EXISTS "${ATTN_SYSDEPS}/${dep}")
    file(CREATE_LINK "${src}" "${ATTN_SYSDEPS}/${dep}" SYMBOLIC)
  endif()
endforeach()
# Eigen's unsupported/ tree is not needed; Eigen headers include each other relatively.

add_library(attn_eigen INTERFACE)
target_include_directories(attn_eigen SYSTEM INTERFACE "${ATTN_SYSDEPS}")
# Deterministic maths: no fast-math anywhere; Eigen must not use OpenMP threads.
target_compile_definitions(attn_eigen INTERFACE EIGEN_DONT_PARALLELIZE EIGEN_MPL2_ONLY)

add_library(attn_json INTERFACE)
target_include_directories(attn_json SYSTEM INTERFACE "${ATTN_SYSDEPS}")
if(EMSCRIPTEN)
  # The wasm app is built without C++ exceptions; the API code never relies on them.
  target_compile_definitions(attn_json INTERFACE JSON_NOEXCEPTION)
endif()

add_library(attn_doctest INTERFACE)
target_include_directories(attn_doctest SYSTEM INTERFACE "${ATTN_SYSDEPS}")

add_library(attn_stb INTERFACE)
target_include_directories(attn_stb SYSTEM INTERFACE "${ATTN_SYSDEPS}")
