// Heatmap pass, fragment stage: one matrix cell value -> one colour.
//
//   t     = clamp((value - lo) / (hi - lo), 0, 1)      (matplotlib Normalize)
//   index = min(int(t * 256), 255)                     (matplotlib Colormap, N = 256)
//   color = lut[index]
//
// u_values holds one texel per cell (R32F, row 0 = query 0), so the output
// texture can have any pixel size and every pixel shows exactly one cell.
// Samplers are highp: a lowp sampler could round the float values on WebGL.
// Masked cells (the "+ mask" step, where the score becomes -inf) arrive as
// values <= -1e38 (the UI writes -FLT_MAX; a true -inf or NaN is avoided on
// purpose, as GLSL ES gives no guarantee for either) and get u_masked_color.
in vec2 v_uv;
out vec4 frag_color;

uniform highp sampler2D u_values;  // cols x rows, R32F
uniform highp sampler2D u_lut;     // 256 x 1, RGBA8
uniform float u_lo;
uniform float u_hi;
uniform vec4 u_masked_color;

void main() {
  ivec2 size = textureSize(u_values, 0);
  ivec2 cell = min(ivec2(v_uv * vec2(size)), size - 1);
  float value = texelFetch(u_values, cell, 0).r;
  if (value <= -1.0e38) {
    frag_color = u_masked_color;
    return;
  }
  float range = u_hi - u_lo;
  // A constant matrix (hi == lo) maps to the bottom colour, as matplotlib does.
  float t = range > 0.0 ? clamp((value - u_lo) / range, 0.0, 1.0) : 0.0;
  int index = min(int(t * 256.0), 255);
  frag_color = texelFetch(u_lut, ivec2(index, 0), 0);
}
