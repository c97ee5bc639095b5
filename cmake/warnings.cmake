# Project-wide warning flags, applied per target via attn_warnings().
function(attn_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
endfunction()

# The core and the API (the maths and what reads configs) are held to more:
# with GCC (the native and asan builds) -Wshadow and -Wconversion too, and any
# warning fails the build. (-Wsign-conversion is left out: Eigen's signed
# indices against std::size_t would need a cast on every loop.)
function(attn_strict_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wshadow -Wconversion -Werror)
  endif()
endfunction()
