// GLSL program building with the per-build version line injected.
// Shader files in shaders/ carry no #version: desktop GL 3.3 core and WebGL2
// (GLSL ES 3.00) accept the same body once the right first line is added.
#pragma once

#include <string>

#include "gfx/gl.hpp"

namespace attn::gfx {

// "#version 330 core\n" natively; "#version 300 es\nprecision highp float;\n"
// on the web (ES fragment shaders have no default float precision).
const char* glsl_version_header();

// Compiles and links; returns 0 and fills *error (compiler log) on failure.
GLuint build_program(const char* vertex_source, const char* fragment_source, std::string* error);

}  // namespace attn::gfx
