# Project-wide warning flags, applied per target via attn_warnings().
function(attn_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
endfunction()
