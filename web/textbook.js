// The example chapter's figures 4.2 and 4.3 (textbook.html), through embed.js.
(function () {
  'use strict';
  // Figure 4.2: the scaling lab; its d_k slider sits behind the "set-up" button.
  AttentionLab.embed(document.getElementById('fig42'), {
    state: { view: 'scaling', panel: 'fig42', dk: 64 },
    controls: 'compact',
    lang: 'zh',
    title: '图 4.2：缩放点积分数',
  });

  // Figure 4.3: the page's own buttons set the mask; the figure shows only itself.
  const names = { none: '无掩码', causal: '因果掩码', padding: '填充掩码' };
  const status = document.getElementById('mask-status');
  const buttons = Array.from(document.querySelectorAll('[data-mask]'));
  const figure = AttentionLab.embed(document.getElementById('fig-mask'), {
    state: { text: '我爱自然语言处理', d_model: 16, heads: 2, seed: 7, mask: 'causal', view: 'heatmaps' },
    controls: 'none',
    lang: 'zh',
    height: 330,
    title: '图 4.3：掩码下的注意力权重',
  });
  function show(state) {
    const kind = typeof state.mask === 'string' ? state.mask : state.mask && state.mask.pad !== undefined ? 'padding' : 'custom';
    for (const b of buttons) {
      const wanted = JSON.parse(b.dataset.mask);
      const pressed = typeof wanted === 'string' ? wanted === kind : kind === 'padding';
      b.setAttribute('aria-pressed', String(pressed));
    }
    status.textContent = '当前：' + (names[kind] || '自定义掩码') + '，' + state.heads + ' 个头';
  }
  figure.on('ready', show).on('change', show);
  for (const button of buttons) {
    button.addEventListener('click', () => {
      figure.set({ mask: JSON.parse(button.dataset.mask) }).then(show, (e) => { status.textContent = e.message; });
    });
  }
})();
