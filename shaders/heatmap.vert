// Heatmap pass, vertex stage: a quad covering the whole render target.
// The four corners come from gl_VertexID (drawn as a 4-vertex triangle
// strip), so no vertex buffer is needed; only an empty VAO is bound.
// No #version line: it is injected per build (cmake/shaders.cmake).
out vec2 v_uv;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  v_uv = corner;
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
