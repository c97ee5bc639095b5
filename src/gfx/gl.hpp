// The one place that picks the OpenGL header for each build.
//   native: desktop OpenGL 3.3 core; libGL (GLVND) exports every entry point,
//           so prototypes are enough and no loader is needed.
//   web:    WebGL2 through Emscripten's OpenGL ES 3.0 headers.
#pragma once

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>
#endif
