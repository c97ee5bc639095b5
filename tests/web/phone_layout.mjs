// The phone layout rules, checked from layout()'s rectangles alone (pixels
// can look right while a section hides another): layout().sections are the
// lab's window and every child window drawn, layout().texts every run of
// text with the section it was drawn in.
//
// - No two sections side by side (same parent) overlap, and a section lies
//   inside its parent unless the parent scrolls that way.
// - Every run of text lies inside its section (the part of it that shows its
//   content), unless the section scrolls that way, and no child section lies
//   over it.
// - A panel is as tall as its content: at most two lines of empty space.
// - A heatmap of at most 12 x 12 cells has cells of at least 24 CSS px, and
//   upright, a heatmap gets at least half the window's width.
export const PHONE_SIZES = [{ width: 360, height: 800 }, { width: 390, height: 844 }, { width: 430, height: 932 },
  { width: 844, height: 390 }];
export const ALL_VIEWS = ['heatmaps', 'focus', 'steps', 'lines', 'filter', 'stats', 'chapter', 'scaling', 'poem', 'why', 'debug'];
export const MIN_CELL_CSS = 24;
const SLACK = 1;  // CSS px: rounding of rectangles to framebuffer pixels

const overlap = (a, b) => Math.min(a.css_x + a.css_w, b.css_x + b.css_w) - Math.max(a.css_x, b.css_x) > SLACK &&
  Math.min(a.css_y + a.css_h, b.css_y + b.css_h) - Math.max(a.css_y, b.css_y) > SLACK;
const inside = (a, b, axis) => axis === 'x'
  ? a.css_x >= b.css_x - SLACK && a.css_x + a.css_w <= b.css_x + b.css_w + SLACK
  : a.css_y >= b.css_y - SLACK && a.css_y + a.css_h <= b.css_y + b.css_h + SLACK;
const short = (name) => name.split('/').pop().replace(/_[0-9A-F]{8}$/, '');
const box = (r) => `${Math.round(r.css_x)},${Math.round(r.css_y)} ${Math.round(r.css_w)}x${Math.round(r.css_h)}`;

// Every rule on one layout: the list of what breaks them ([] when none does).
export function phoneLayoutProblems(layout, size) {
  const problems = [];
  const sections = layout.sections.filter((s) => s.css_w > 0 && s.css_h > 0);
  const byName = new Map(sections.map((s) => [s.name, s]));
  for (const [i, a] of sections.entries()) {
    for (const b of sections.slice(i + 1))
      if (a.parent === b.parent && overlap(a, b)) problems.push(`sections ${short(a.name)} ${box(a)} and ${short(b.name)} ${box(b)} overlap`);
    const parent = byName.get(a.parent);
    for (const axis of ['x', 'y'])
      if (parent && !parent[`scroll_${axis}`] && !inside(a, parent.inner, axis))
        problems.push(`section ${short(a.name)} ${box(a)} runs out of ${short(parent.name)} ${box(parent.inner)} (${axis})`);
    if (a.panel && a.parent && !a.scroll_y && a.css_h - a.content_h / layout.device_pixel_ratio > 2 * 18)
      problems.push(`panel ${short(a.name)} is ${Math.round(a.css_h)} px tall for ${Math.round(a.content_h / layout.device_pixel_ratio)} px of content`);
  }
  for (const t of layout.texts) {
    const s = byName.get(t.section);
    if (!s) continue;  // a tooltip's
    for (const axis of ['x', 'y'])
      if (!s[`scroll_${axis}`] && !inside(t, s.inner, axis))
        problems.push(`text "${t.text}" ${box(t)} is cut at the edge of ${short(s.name)} ${box(s.inner)} (${axis})`);
    const over = sections.find((c) => c.parent === s.name && overlap(c, t));
    if (over) problems.push(`text "${t.text}" ${box(t)} lies under ${short(over.name)} ${box(over)}`);
  }
  for (const h of layout.heatmaps) {
    if (h.rows <= 12 && h.cols <= 12 && (h.css_w / h.cols < MIN_CELL_CSS - 0.01 || h.css_h / h.rows < MIN_CELL_CSS - 0.01))
      problems.push(`heatmap ${h.name}: ${h.rows}x${h.cols} cells of ${(h.css_w / h.cols).toFixed(1)} x ${(h.css_h / h.rows).toFixed(1)} px`);
    if (size.height > size.width && h.css_w < size.width / 2)
      problems.push(`heatmap ${h.name}: ${Math.round(h.css_w)} px wide in a window ${size.width} px wide`);
  }
  return problems;
}
