# The page's main module (attention_web) is linked with link-time optimisation:
# the UI and the core are then optimised as one program, 8 KB gzipped smaller
# (the first download's budget, tests/web/fonts_e2e.mjs). Only that module:
# every other wasm program (the unit tests, the benchmarks, the view modules)
# links ordinary objects, so its link needs no optimisation pass of its own.
#
# The UI's libraries are linked by the main module alone and are compiled for
# it (attn_lto). The core and the API are linked by the other programs too:
# the main module gets copies of them compiled for link-time optimisation
# (attn_lto_copy: <target>_lto, same sources, settings and links).

# Compiles `target`'s own sources for link-time optimisation (wasm only).
function(attn_lto target)
  if(EMSCRIPTEN)
    target_compile_options(${target} PRIVATE -flto)
  endif()
endfunction()

# <target>_lto: a copy of static library `target` compiled with -flto, linking
# the _lto copy of any library in `copied` instead of the original. Call it in
# the directory that defines `target` (its sources are relative to it).
function(attn_lto_copy target)
  get_target_property(sources ${target} SOURCES)
  add_library(${target}_lto STATIC ${sources})
  foreach(property INCLUDE_DIRECTORIES INTERFACE_INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS
                   LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
    get_target_property(values ${target} ${property})
    if(values)
      foreach(copied ${ARGN})
        list(TRANSFORM values REPLACE "^${copied}$" "${copied}_lto")
      endforeach()
      set_property(TARGET ${target}_lto PROPERTY ${property} ${values})
    endif()
  endforeach()
  target_compile_options(${target}_lto PRIVATE -flto)
endfunction()
