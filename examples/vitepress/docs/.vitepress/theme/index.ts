// VitePress's default theme, with the lab's figure component available in
// every page's Markdown as <AttentionLab>.
import DefaultTheme from 'vitepress/theme'
import type { Theme } from 'vitepress'
import AttentionLab from './AttentionLab.vue'
import './custom.css'

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('AttentionLab', AttentionLab)
  },
} satisfies Theme
