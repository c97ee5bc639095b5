// The example site: a chapter of the textbook the lab accompanies, built as
// the book is (VitePress, zh-CN). build.mjs copies the lab into
// docs/public/labs/attention/ first and sets the base path
// (`--base /signal-to-intelligence/` for GitHub Pages, `/` elsewhere).
import { defineConfig } from 'vitepress'

export default defineConfig({
  lang: 'zh-CN',
  title: '从信号到智能（示例）',
  description: '自注意力实验室嵌入 VitePress 章节页的示例',
  // The lab's pages are static files of their own, not VitePress pages.
  srcExclude: ['public/**'],
  themeConfig: {
    nav: [{ text: '目录', link: '/' }, { text: '4.1 自注意力', link: '/self-attention' }],
    sidebar: [
      {
        text: '第 4 章 注意力',
        items: [
          { text: '目录', link: '/' },
          { text: '4.1 自注意力机制', link: '/self-attention' },
        ],
      },
    ],
    outline: { label: '本页目录' },
    docFooter: { prev: '上一页', next: '下一页' },
    darkModeSwitchLabel: '外观',
    lightModeSwitchTitle: '切换到浅色模式',
    darkModeSwitchTitle: '切换到深色模式',
  },
})
