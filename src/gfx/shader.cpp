// GLSL program building; see shader.hpp.
#include "gfx/shader.hpp"

#include <vector>

namespace attn::gfx {
namespace {

// Shader and program logs are read the same way through different GL calls.
template <typename GetIv, typename GetLog>
std::string info_log(GLuint object, GetIv get_iv, GetLog get_log) {
  GLint length = 0;
  get_iv(object, GL_INFO_LOG_LENGTH, &length);
  std::vector<char> log(std::size_t(length > 1 ? length : 1), '\0');
  get_log(object, GLsizei(log.size()), nullptr, log.data());
  return log.data();
}

GLuint compile(GLenum stage, const char* source, std::string* error) {
  const GLuint shader = glCreateShader(stage);
  const char* parts[] = {glsl_version_header(), source};
  glShaderSource(shader, 2, parts, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok == GL_TRUE) return shader;
  if (error) {
    *error = std::string(stage == GL_VERTEX_SHADER ? "vertex" : "fragment") +
             " shader: " + info_log(shader, glGetShaderiv, glGetShaderInfoLog);
  }
  glDeleteShader(shader);
  return 0;
}

}  // namespace

const char* glsl_version_header() {
#ifdef __EMSCRIPTEN__
  return "#version 300 es\nprecision highp float;\n";
#else
  return "#version 330 core\n";
#endif
}

GLuint build_program(const char* vertex_source, const char* fragment_source, std::string* error) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex_source, error);
  if (!vs) return 0;
  const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment_source, error);
  if (!fs) {
    glDeleteShader(vs);
    return 0;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);  // flagged for deletion; freed with the program
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok == GL_TRUE) return program;
  if (error) *error = "link: " + info_log(program, glGetProgramiv, glGetProgramInfoLog);
  glDeleteProgram(program);
  return 0;
}

}  // namespace attn::gfx
