// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  integrations: [react()],
  i18n: {
    defaultLocale: 'en',
    locales: ['en', { path: 'zh-tw', codes: ['zh-TW', 'zh-Hant'] }],
    routing: { prefixDefaultLocale: true, redirectToDefaultLocale: false },
  },
  security: {
    // Astro's origin check has no per-path exemption, and the card gateway posts its notify and
    // return requests from another origin. src/middleware.ts enforces the same rule with an
    // allow-list for those two paths (see docs/decisions/002-origin-check.md).
    checkOrigin: false,
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data: blob:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
      ],
    },
  },
  server: { port: 4321, host: 'localhost' },
  vite: {
    plugins: [tailwindcss()],
    ssr: { external: ['@electric-sql/pglite'] },
  },
});
