// @ts-check
/**
 * Lint: the import directions of DESIGN §3 (decision 008), the React hooks rules on islands,
 * and no floating or misused promises (type-aware, .ts and .tsx).
 *
 *   pages ─► features ─► components, layouts, lib ─► domain
 *     └─► (catch-all endpoints) server ─► domain, @i18n/locales, @i18n/catalogues
 *
 * The boundaries use ESLint's own `no-restricted-imports` with regex patterns. Its options do
 * not merge across config objects (the last one matching a file wins), so each zone below lists
 * all of its patterns, and a narrower zone further down replaces a wider one for its files.
 */
import { defineConfig, globalIgnores } from 'eslint/config';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { structureRules } from './eslint/structure-rules.js';

/**
 * A restricted import: `regex` is matched against the import specifier.
 * @param {string} regex
 * @param {string} message
 */
const ban = (regex, message) => ({ regex, message, caseSensitive: true });

/**
 * The specifiers that reach the top-level folder `src/<name>`: the alias (`@server/…`), a
 * relative path through a folder of that name (`../../server/…`, `./server/…`), or a path from
 * the project root (`/src/server/…`, `src/server/…`).
 * @param {string} name
 */
const reach = (name) => `^(?:@${name}|(?:\\.{1,2}/|/|src/)(?:[^/]+/)*${name})(?:/|$)`;

const ALIASED = ['domain', 'server', 'lib', 'features', 'components', 'i18n', 'layouts'];

const rules = {
  // Everywhere: other top-level folders through their alias, not `../../lib/…` (tsconfig paths).
  aliases: ban(
    `^(?:\\.\\./)+(?:[^/]+/)*(?:src|${ALIASED.join('|')})(?:/|$)`,
    'Import another top-level folder through its alias (@lib/…, @domain/…), not a relative path.',
  ),
  server: ban(
    reach('server'),
    'Page code never imports the server: pages call the API through @lib/embedded-api.server, read public settings from @lib/portal-config.server, and log through @lib/ops.server.',
  ),
  features: ban(reach('features'), 'Only pages import features.'),
  pages: ban(reach('pages'), 'Nothing imports pages.'),
  components: ban(reach('components'), 'Only features, layouts and pages import components.'),
  layouts: ban(reach('layouts'), 'Only features and pages import layouts.'),
  lib: ban(reach('lib'), 'The server does not import @lib (UI code): move what both need to @domain.'),
  // An island bundles what it imports: its words come as props (pickMessages), read with @i18n/t.
  islandWords: ban(
    '^@i18n/(?!(?:t|locales)$)',
    'Islands get their messages as props (pickMessages on the server) and read them with @i18n/t: importing a catalogue or the i18next runtime ships it to the browser.',
  ),
};

const SERVER_MESSAGE =
  'The server imports only @domain/*, @i18n/locales and @i18n/catalogues (the words, decision 037) outside src/server.';

const ZONES = {
  domain: [
    ban(
      `^(?:@(?:${ALIASED.filter((n) => n !== 'domain').join('|')})(?:/|$)|/|src/)`,
      'src/domain imports no project module.',
    ),
    ban('^\\.\\./', 'src/domain imports no project module outside src/domain.'),
    ban(
      '^(?:(?:node:)?(?:fs|net|http|https|http2|dgram|tls|child_process)|pg|@electric-sql/pglite|drizzle-orm|hono|@hono/[^/]+|ofetch)(?:/|$)',
      'src/domain is pure: no I/O (files, network, database, HTTP). Pass what a rule needs in as an argument.',
    ),
  ],
  server: [
    rules.aliases,
    ban(reach('features'), SERVER_MESSAGE),
    ban(reach('components'), SERVER_MESSAGE),
    ban(reach('layouts'), SERVER_MESSAGE),
    ban(reach('lib'), SERVER_MESSAGE),
    ban(reach('pages'), SERVER_MESSAGE),
    // Not the pages' i18next runtime (@i18n/i18n) nor a catalogue's JSON itself: one reader.
    ban('^@i18n/(?!(?:locales|catalogues)$)', SERVER_MESSAGE),
  ],
  lib: [rules.aliases, rules.server, rules.features, rules.components, rules.layouts, rules.pages],
  /** The modules that connect page code to the server (the API, public settings, the log and metrics). */
  libSeam: [rules.aliases, rules.features, rules.components, rules.layouts, rules.pages],
  i18n: [rules.aliases, rules.server, rules.features, rules.components, rules.layouts, rules.pages],
  /** Shared UI: below the features. */
  sharedUi: [rules.aliases, rules.server, rules.features, rules.pages],
  pages: [rules.aliases, rules.server],
  /** The catch-all endpoints that mount the server's Hono apps. */
  endpoints: [rules.aliases],
  /** A feature (its imports of other features: `structure/feature-isolation`). */
  features: [rules.aliases, rules.server, rules.pages],
  elsewhere: [rules.aliases],
};

const LIB_SEAMS = ['src/lib/embedded-api.server.ts', 'src/lib/portal-config.server.ts', 'src/lib/ops.server.ts'];
const ENDPOINTS = [
  'src/pages/api/[[]...path].ts',
  'src/pages/dev-content/[[]...path].ts',
  'src/pages/dev-identity/[[]...path].ts',
  'src/pages/dev-mailbox/[[]...path].ts',
  'src/pages/sandbox-gateway/[[]...path].ts',
  // The operations endpoints at the site root (decision 040).
  'src/pages/healthz.ts',
  'src/pages/readyz.ts',
  'src/pages/metrics.ts',
];

/**
 * Cross-feature imports that existed when the rule came (2026-11): exactly these specifiers in
 * exactly these files, so a new one fails (`structure/feature-isolation` resolves each import to
 * its file, so a folder inside a feature may share a name with another feature). Remove an entry
 * when its import goes.
 */
const KNOWN_CROSS_FEATURE = {
  'src/features/payments/payments.server.ts': ['@features/orders/orders.server', '../orders/orders.server'],
  // The event order pages' loader (summary, pending) finds the event of a 404.
  'src/features/orders/order-page.server.ts': ['@features/badges/badges.server', '../badges/badges.server'],
};

/**
 * `no-restricted-imports` checks `import`/`export … from` but not `import()`; this checks dynamic
 * imports against the same patterns (`restrict` sets both); of a template literal, the part before
 * the first `${…}` is checked.
 * @type {import('eslint').Rule.RuleModule}
 */
const dynamicImports = {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { patterns: { type: 'array' } }, additionalProperties: false }],
  },
  create(context) {
    /** @type {{ regex: string; message: string }[]} */
    const options = context.options[0]?.patterns ?? [];
    const patterns = options.map((p) => ({ ...p, re: new RegExp(p.regex, 'u') }));
    return {
      ImportExpression(node) {
        const specifier = node.source;
        const source =
          specifier.type === 'Literal'
            ? specifier.value
            : specifier.type === 'TemplateLiteral'
              ? specifier.quasis[0]?.value.cooked
              : undefined;
        if (typeof source !== 'string') return;
        const hit = patterns.find((p) => p.re.test(source));
        if (hit)
          context.report({
            node,
            message: `'${source}' import is restricted from being used by a pattern. ${hit.message}`,
          });
      },
    };
  },
};

/**
 * One config object per zone: static and dynamic imports against the zone's patterns.
 * @param {string[]} files
 * @param {ReturnType<typeof ban>[]} patterns
 * @param {string[]} [ignores]
 * @returns {import('eslint').Linter.Config}
 */
const restrict = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: {
    'no-restricted-imports': ['error', { patterns }],
    'boundaries/dynamic-imports': ['error', { patterns }],
  },
});

const SOURCE = '**/*.{js,mjs,cjs,ts,mts,cts,tsx,astro}';

export default defineConfig(
  globalIgnores([
    'dist/',
    '.astro/',
    '.data/',
    'drizzle/',
    'test-results/',
    'playwright-report/',
    'bench-results/',
    'public/',
  ]),

  // TypeScript, and the .astro files (frontmatter and <script> tags) through eslint-plugin-astro.
  tseslint.configs.recommended,
  astro.configs.recommended,
  // `const { d: _d, ...publicJwk } = jwk` drops a field on purpose.
  { rules: { '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }] } },
  {
    files: ['**/*.{ts,mts,cts,tsx}'],
    // The <script> blocks of .astro files (virtual `Page.astro/1.ts`) are outside the TypeScript
    // project: eslint-plugin-astro lints them without type information.
    ignores: ['**/*.astro/*'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['**/*.tsx'],
    ...reactHooks.configs.flat.recommended,
  },

  // Import boundaries (DESIGN §3, decision 008): every file gets the last zone that matches it.
  { plugins: { boundaries: { rules: { 'dynamic-imports': dynamicImports } } } },
  restrict([SOURCE], ZONES.elsewhere),
  restrict(['src/domain/**'], ZONES.domain),
  restrict(['src/server/**'], ZONES.server),
  restrict(['src/lib/**'], ZONES.lib, LIB_SEAMS),
  restrict(LIB_SEAMS, ZONES.libSeam),
  restrict(['src/i18n/**'], ZONES.i18n),
  restrict(['src/components/**', 'src/layouts/**'], ZONES.sharedUi),
  restrict(['src/components/**/*.tsx'], [...ZONES.sharedUi, rules.islandWords]),
  restrict(['src/pages/**', 'src/middleware.ts', 'src/*.d.ts'], ZONES.pages, ENDPOINTS),
  restrict(ENDPOINTS, ZONES.endpoints),
  restrict(['src/features/**'], ZONES.features),
  restrict(['src/features/**/*.tsx'], [...ZONES.features, rules.islandWords]),

  // The shape of the tree: features apart, no import cycle, one file-naming convention, and no
  // registration kind named outside the kinds home (issue 19).
  { plugins: { structure: { rules: structureRules } } },
  {
    files: ['src/**/*.{ts,tsx,astro}'],
    rules: {
      'structure/feature-isolation': ['error', { allowed: KNOWN_CROSS_FEATURE }],
      'structure/no-cycles': 'error',
      'structure/file-names': 'error',
      'structure/no-kind-literals': 'error',
    },
  },
  // The kinds home names its types; so do the seed (the edition's events) and the tests.
  {
    files: ['src/domain/kinds/**', 'src/server/kinds/**', 'src/server/db/seed.ts', 'src/**/*.test.ts'],
    rules: { 'structure/no-kind-literals': 'off' },
  },
);
