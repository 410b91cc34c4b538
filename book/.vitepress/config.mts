import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';

// The API reference's pages, one per subpath of @opgen/runtime, once api-reference.mjs wrote them.
const api = fileURLToPath(new URL('../api', import.meta.url));
const apiPages = existsSync(api) ? readdirSync(api).filter((f) => f.endsWith('.md') && f !== 'index.md' && f !== 'modules.md').map((f) => f.slice(0, -3)).sort() : [];

// The opgen book. Code samples are never written in the pages: each is a region of a file
// under snippets/, which test/book/ compiles and runs.
export default defineConfig({
  title: 'The opgen book',
  description: 'Kubernetes operators in TypeScript with opgen',
  // Without an icon link, browsers ask for /favicon.ico, which the site does not have.
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }]],
  cleanUrls: false,
  lastUpdated: false,
  // The pages link to each other only; a dead one fails the build.
  ignoreDeadLinks: false,
  srcExclude: ['snippets/**', 'README.md', 'api-reference.md'],
  themeConfig: {
    nav: [{ text: 'Getting started', link: '/getting-started' }],
    sidebar: [
      {
        text: 'The book',
        items: [
          { text: 'Getting started', link: '/getting-started' },
          { text: 'Writing API types', link: '/api-types' },
          { text: 'Writing controllers', link: '/controllers' },
          { text: 'Testing', link: '/testing' },
          { text: 'Developing: opgen dev', link: '/developing' },
          { text: 'Webhooks and conversion', link: '/webhooks' },
          { text: 'From init to production', link: '/production' },
          { text: 'Deploying, Helm, OLM', link: '/deploying' },
          { text: 'Security', link: '/security' },
          { text: 'Upgrading', link: '/upgrading' },
          { text: 'Running at scale', link: '/scale' },
          { text: 'Many clusters', link: '/multicluster' },
          { text: "Working with other projects' APIs", link: '/external-apis' },
          { text: 'Tutorial: the CronJob operator', link: '/cronjob' },
          { text: 'Coming from kubebuilder', link: '/kubebuilder' },
          { text: 'The commands', link: '/commands' },
          { text: 'Troubleshooting', link: '/troubleshooting' },
        ],
      },
      {
        text: 'API reference: @opgen/runtime',
        collapsed: true,
        items: [{ text: 'About this reference', link: '/api/' }, { text: '@opgen/runtime', link: '/api/index/' }, ...apiPages.map((page) => ({ text: `@opgen/runtime/${page}`, link: `/api/${page}` }))],
      },
    ],
    search: { provider: 'local' },
    // The outline beside the text would leave code blocks 68 columns wide at 1280 px.
    aside: false,
  },
});
