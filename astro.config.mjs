// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';

/*
 * Client JavaScript budget (DESIGN §4: wizard and payment pages ≤ 100 KB gzip in total, lazy
 * chunks included; measured by `npm run bench`; docs/decisions/006-lazy-wizard-parts.md).
 */

/**
 * Vite wraps every dynamic `import()` of the client in its preload helper (about 0.8 KB gzip),
 * which first fetches the imported chunk's dependencies and CSS. Here the lazily loaded parts
 * (uploader, dialogs) depend only on chunks the page has already loaded, and carry no CSS
 * (Tailwind's is global): with `modulePreload: false` their dependency lists are empty and the
 * helper is just `load()`. The build fails if a lazy chunk ever needs a dependency list again
 * (a lazy component importing CSS, say), so that it cannot silently go missing.
 */
function lazyImportsWithoutPreload() {
  const HELPER = /^\0vite\/preload-helper\.js$/;
  return {
    name: 'portal:lazy-imports-without-preload',
    apply: /** @type {const} */ ('build'),
    /** @param {{ name: string }} environment */
    applyToEnvironment: (environment) => environment.name === 'client',
    /** @param {string} name */
    configEnvironment: (name) => (name === 'client' ? { build: { modulePreload: false } } : undefined),
    load: {
      filter: { id: HELPER },
      handler: () => 'export const __vitePreload = (load) => load();',
    },
    /** @param {unknown} _ @param {Record<string, { type: string; code?: string }>} bundle */
    writeBundle(_, bundle) {
      for (const [file, chunk] of Object.entries(bundle))
        if (chunk.type === 'chunk' && chunk.code?.includes('__vite__mapDeps'))
          throw new Error(`${file}: a lazy import needs preloaded dependencies; revisit lazyImportsWithoutPreload`);
    },
  };
}

/**
 * Radix's packages are built with esbuild's keepNames: every function is wrapped in
 * `__name(fn, "Name")`, a call that sets `fn.name` for debugging. Its side effect stops the
 * minifier from inlining or dropping those functions (about 1.7 KB gzip of the dialogs chunk).
 * Nothing in Radix reads `.name` (its `displayName`s are separate assignments, kept), so this
 * unwraps the calls in the client build.
 */
function radixWithoutKeepNames() {
  return {
    name: 'portal:radix-without-keep-names',
    apply: /** @type {const} */ ('build'),
    /** @param {{ name: string }} environment */
    applyToEnvironment: (environment) => environment.name === 'client',
    transform: {
      filter: { id: /node_modules[\\/]@radix-ui[\\/].*\.mjs$/, code: '__name(' },
      /** @this {{ parse: (code: string) => any }} @param {string} code */
      handler(code) {
        /** @type {Array<[number, number]>} the `__name(` before and the `, "Name")` after each wrapped function */
        const cuts = [];
        /** @param {any} node */
        const visit = (node) => {
          if (Array.isArray(node)) return node.forEach(visit);
          if (!node || typeof node.type !== 'string') return;
          const [fn, name] = node.type === 'CallExpression' && node.callee.name === '__name' ? node.arguments : [];
          if (fn && name?.type === 'Literal') cuts.push([node.start, fn.start], [fn.end, node.end]);
          for (const value of Object.values(node)) if (value && typeof value === 'object') visit(value);
        };
        visit(this.parse(code));
        let out = code;
        for (const [from, to] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, from) + out.slice(to);
        return { code: out, map: null };
      },
    },
  };
}

/**
 * Astro writes its island rule (`astro-island,astro-slot,astro-static-slot{display:contents}`) as
 * a `<style>` element in front of the first island, inside `<body>`, where HTML allows no
 * `<style>` (the Nu HTML Checker's one error on every page with an island). The same rule is in
 * src/styles/global.css, which every page loads in `<head>`; this drops the inline copy from
 * Astro's island prescripts (the directive and island `<script>`s stay). It fails the build if
 * Astro's code no longer has the expected shape, so an upgrade cannot bring the error back
 * silently (tests/e2e/html-validity.spec.ts checks the pages too).
 */
function islandStyleInHead() {
  const FILE = /[\\/]astro[\\/]dist[\\/]runtime[\\/]server[\\/]scripts\.js$/;
  const INLINE = '<style>${ISLAND_STYLES}</style>';
  return {
    name: 'portal:island-style-in-head',
    enforce: /** @type {const} */ ('pre'),
    /** @param {string} code @param {string} id */
    transform(code, id) {
      if (!FILE.test(id.split('?')[0] ?? '')) return null;
      if (!code.includes(INLINE))
        throw new Error(`${id}: Astro's inline island style was not found; revisit islandStyleInHead`);
      return { code: code.replaceAll(INLINE, ''), map: null };
    },
  };
}

/**
 * Modules the islands' libraries import, replaced in the client build by the few lines of them
 * that are used (src/lib/shims/, each with what it leaves out; decision 006): file-selector's
 * `fromEvent` for react-dropzone (about 1.1 KB gzip of the uploader), ufo's `withBase` and
 * `withQuery` and destr for ofetch (about 1.2 KB of every island's shared chunk), Radix's Slot
 * without `Slottable` and Presence without exit animations (about 1 KB of the dialogs), Radix's
 * contexts without scopes (0.2 KB; decision 070). The server build keeps the real modules.
 */
function clientShims() {
  /** @type {Record<string, string>} */
  const SHIMS = {
    'file-selector': fileURLToPath(new URL('./src/lib/shims/file-selector.ts', import.meta.url)),
    ufo: fileURLToPath(new URL('./src/lib/shims/ufo.ts', import.meta.url)),
    destr: fileURLToPath(new URL('./src/lib/shims/destr.ts', import.meta.url)),
    '@radix-ui/react-slot': fileURLToPath(new URL('./src/lib/shims/radix-slot.tsx', import.meta.url)),
    '@radix-ui/react-presence': fileURLToPath(new URL('./src/lib/shims/radix-presence.tsx', import.meta.url)),
    '@radix-ui/react-context': fileURLToPath(new URL('./src/lib/shims/radix-context.tsx', import.meta.url)),
  };
  return {
    name: 'portal:client-shims',
    enforce: /** @type {const} */ ('pre'),
    apply: /** @type {const} */ ('build'),
    /** @param {{ name: string }} environment */
    applyToEnvironment: (environment) => environment.name === 'client',
    resolveId: {
      filter: { id: /^(file-selector|ufo|destr|@radix-ui\/react-(slot|presence|context))$/ },
      /** @param {string} id */
      handler: (id) => SHIMS[id] ?? null,
    },
  };
}

/**
 * The modules the registrants' islands load up front: everything an island outside the back
 * office (src/features/back-office) imports statically, found once the client build's module
 * graph is complete (`buildEnd`, before chunking). The islands' shared chunk takes only these,
 * so that what only back-office islands share (their endpoints, a dialog they import
 * statically, their widgets) never lands in a chunk the wizard and payment pages load
 * (DESIGN §4 budget, decision 062). `src/lib/api/index.ts` names the admin endpoints for the
 * SSR pages' full client, which the islands never call: the walk stops at them, and the build
 * fails if the islands' chunk ever imports the back office's.
 */
const registrantModules = new Set();
/** The back office's islands, and the client modules only they use (@lib/admin-api.client, its endpoints). */
const BACK_OFFICE = /[\\/]src[\\/](features[\\/]back-office[\\/]|lib[\\/](api[\\/])?admin-[^\\/]+$)/;
function registrantIslandModules() {
  return {
    name: 'portal:registrant-island-modules',
    apply: /** @type {const} */ ('build'),
    /** @param {{ name: string }} environment */
    applyToEnvironment: (environment) => environment.name === 'client',
    /** @this {{ getModuleIds: () => Iterable<string>, getModuleInfo: (id: string) => { isEntry: boolean, importedIds: readonly string[] } | null }} */
    buildEnd() {
      registrantModules.clear();
      const queue = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry && !BACK_OFFICE.test(id));
      while (queue.length) {
        const id = /** @type {string} */ (queue.pop());
        if (registrantModules.has(id) || BACK_OFFICE.test(id)) continue;
        registrantModules.add(id);
        queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
      if (registrantModules.size === 0) throw new Error('no registrant island found; revisit registrantIslandModules');
    },
    /** @param {unknown} _ @param {Record<string, { type: string; name?: string; imports?: string[]; dynamicImports?: string[] }>} bundle */
    writeBundle(_, bundle) {
      for (const [file, chunk] of Object.entries(bundle))
        if (chunk.type === 'chunk' && chunk.name === 'islands')
          for (const imported of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])])
            if (bundle[imported]?.name === 'back-office')
              throw new Error(
                `${file} imports ${imported}: a registrant island uses back-office code; revisit registrantIslandModules`,
              );
    },
  };
}

/**
 * The modules islands share (API client with ofetch, nanostores, superstruct, wizard helpers,
 * form parts, UI kit), gathered into one chunk rather than a dozen small ones.
 * @param {string} id
 */
const SHARED = (id) =>
  /[\\/]src[\\/](lib|i18n|components[\\/]ui)[\\/][^/\\]+\.tsx?$/.test(id) ||
  /[\\/]src[\\/]domain[\\/](case|return-path)\.ts$/.test(id) ||
  /[\\/]node_modules[\\/](ofetch|ufo|destr|nanostores|@nanostores[\\/]persistent|superstruct)[\\/]/.test(id);

export default defineConfig({
  output: 'server',
  // Pages are rendered whole, then sent (decision 024): they load their data before any markup,
  // so streaming sent nothing earlier, and it cost a write and a compression flush per chunk
  // (about a tenth of the orders page). A page that fails mid-render now answers its 500 page.
  // Middleware mode: server.mjs serves the built files itself from a list made at start-up, so a
  // page or API request costs no file-system lookup (the standalone handler stat'ed every URL).
  adapter: node({ mode: 'middleware', experimentalDisableStreaming: true }),
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
    plugins: [
      tailwindcss(),
      islandStyleInHead(),
      lazyImportsWithoutPreload(),
      radixWithoutKeepNames(),
      clientShims(),
      registrantIslandModules(),
    ],
    ssr: { external: ['@electric-sql/pglite'] },
    environments: {
      client: {
        build: {
          rolldownOptions: {
            output: {
              // Fewer, larger chunks compress better (each file is compressed on its own):
              // React in one chunk, the islands' shared code (API client, stores, validation,
              // wizard helpers, form parts) in another. Lazily loaded parts keep their own chunks.
              codeSplitting: {
                groups: [
                  // Shared by the header's script, on every page (≤ 5 KB budget): kept apart so
                  // that pages without islands never load the islands' chunk.
                  { name: 'draft-keys', test: /[\\/]src[\\/]lib[\\/]draft-keys\.ts$/, priority: 60 },
                  // React with its renderer, and Vite's (emptied) preload helper, which every lazy
                  // import() calls: every island loads React, so the helper rides along instead
                  // of costing a file (decision 062).
                  {
                    name: 'react',
                    test: (id) =>
                      /[\\/]node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react)[\\/]/.test(id) ||
                      /^\0vite[\\/]preload-helper/.test(id),
                    priority: 50,
                  },
                  {
                    name: 'islands',
                    // Only what registrants' islands load up front and share, never a lazily
                    // loaded part, nor what only back-office islands use (registrantModules).
                    tags: ['$initial'],
                    minShareCount: 2,
                    test: (id) => registrantModules.has(id) && SHARED(id),
                    priority: 40,
                  },
                  // The wizards' shared parts (step frame, alerts, validation; not the lazy uploader, whose
                  // import() would count on every wizard page): one
                  // chunk for the wizard pages, which the payment pages do not load.
                  {
                    name: 'wizard',
                    tags: ['$initial'],
                    minShareCount: 2,
                    test: (id) =>
                      registrantModules.has(id) &&
                      /[\\/]src[\\/](components[\\/]wizard[\\/](WizardParts|use-wizard-alert)\.tsx|domain[\\/]validation\.ts)$/.test(
                        id,
                      ),
                    priority: 35,
                  },
                  // The pitching wizards' own modules (wizard, store, story form and kind): one file
                  // instead of three (decision 070). Priorities are whole numbers: Rolldown does not
                  // order groups by fractions (3.4 and 3.1 tied, and the first group took both).
                  {
                    name: 'pitching',
                    tags: ['$initial'],
                    test: (id) =>
                      registrantModules.has(id) &&
                      /[\\/]src[\\/](features[\\/]pitching[\\/](PitchingWizard\.tsx|pitching-wizard\.store\.ts|pitching-steps\.ts|story-form\.ts)|domain[\\/]kinds[\\/]pitching\.ts)$/.test(
                        id,
                      ),
                    priority: 31,
                  },
                  // Kept out of the pitching chunk (a group takes its modules' imports along): the
                  // money and date formats and the works block, which other pages load without it.
                  {
                    name: 'format',
                    test: (id) => /[\\/]src[\\/]domain[\\/]format\.ts$/.test(id),
                    priority: 34,
                  },
                  {
                    name: 'WizardWorks',
                    test: (id) => /[\\/]src[\\/]components[\\/]wizard[\\/]WizardWorks\.tsx$/.test(id),
                    priority: 34,
                  },
                  // What the payment pages and the pitching wizards share: payment rules and the
                  // invoice block, one file (decision 070).
                  {
                    name: 'payment',
                    tags: ['$initial'],
                    test: (id) =>
                      registrantModules.has(id) &&
                      /[\\/]src[\\/](domain[\\/](payments|invoices)\.ts|components[\\/]forms[\\/]InvoiceFields\.tsx)$/.test(
                        id,
                      ),
                    priority: 33,
                  },
                  // The form fields the Market and Story forms share (text area, select, form parts):
                  // one file instead of two.
                  {
                    name: 'form-fields',
                    test: (id) =>
                      /[\\/]src[\\/](components[\\/]wizard[\\/]FormParts\.tsx|components[\\/]forms[\\/](TextArea|Select)Field\.tsx)$/.test(
                        id,
                      ),
                    priority: 34,
                  },
                  // The dialogs and Radix Dialog with its packages, in one chunk that registrants'
                  // islands load lazily (`loadDialogs`); a back-office island that imports a
                  // dialog statically loads it up front.
                  {
                    name: 'dialogs',
                    test: (id) =>
                      /[\\/]src[\\/]components[\\/]ui[\\/](dialogs\.ts|(Alert|Confirm)Dialog\.tsx|ModalContent\.tsx)$/.test(
                        id,
                      ) ||
                      /[\\/]src[\\/]lib[\\/]shims[\\/]radix-/.test(id) ||
                      /[\\/]node_modules[\\/](@radix-ui|aria-hidden)[\\/]/.test(id),
                    priority: 30,
                  },
                  // What back-office islands share up front (their endpoints, toasts, forms): one
                  // chunk of their own.
                  {
                    name: 'back-office',
                    tags: ['$initial'],
                    minShareCount: 2,
                    test: SHARED,
                    priority: 20,
                  },
                ],
              },
            },
          },
        },
      },
    },
  },
});
