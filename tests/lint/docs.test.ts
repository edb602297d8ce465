/*
 * The README and the manual in docs/ against the code they describe: the variables the portal
 * reads, the npm scripts, the files named, and the links between the pages. Cheap checks of what
 * drifts first when the code moves; what a page says about behaviour stays the reviewers' job.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@server/config';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Files under `dir` (relative to the root) whose name matches `name`, recursively. */
function files(dir: string, name: RegExp): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir))) {
    const path = join(dir, entry);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...files(path, name));
    else if (name.test(entry)) out.push(path);
  }
  return out.sort();
}

/** The README and the manual; decision records are kept as written, so only their links are checked. */
const MANUAL = ['README.md', ...files('docs', /\.md$/).filter((f) => !f.startsWith('docs/decisions/'))];
const ALL_DOCS = ['README.md', ...files('docs', /\.md$/)];

/** Markdown without its fenced code blocks (a `#` in a shell block is no heading, a `[x](y)` there no link). */
const prose = (text: string) => text.replace(/^(```+|~~~+)[^\n]*\n[\s\S]*?^\1\s*$/gm, '');
/** …and without its inline code spans. */
const proseOnly = (text: string) => prose(text).replace(/`[^`\n]*`/g, '');

// ---- environment variables ------------------------------------------------------------------

/** Every variable `parseConfig` reads: its struct's keys (seen through a proxy) and its direct `env.X` reads. */
function configVariables(): Set<string> {
  const names = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_, key) {
      if (typeof key === 'string') names.add(key);
      return undefined;
    },
  });
  parseConfig(env);
  for (const [, name] of read('src/server/config.ts').matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)) names.add(name!);
  return names;
}

/** `process.env.X` reads (not assignments) in these files. */
function processEnvReads(paths: string[]): Set<string> {
  const names = new Set<string>();
  for (const path of paths)
    for (const [, name] of read(path).matchAll(/process\.env\.([A-Z][A-Z0-9_]*)\b(?!\s*=[^=])/g)) names.add(name!);
  return names;
}

const SOURCE = /\.(ts|tsx|mjs|js|astro)$/;
const notTest = (f: string) => !/\.(test|spec)\.ts$/.test(f);

/** Scripts a developer runs by hand (not the portal's commands): their variables are tools' variables. */
const DEV_TOOLS = ['scripts/favicon.ts'];

/** What the portal and its operator commands read: config.ts, and the few direct reads (server.mjs, middleware, scripts/lib.ts, the db client). */
const portalVariables = () =>
  new Set([
    ...configVariables(),
    ...processEnvReads([
      ...files('src', SOURCE).filter(notTest),
      'server.mjs',
      ...files('scripts', /\.ts$/).filter((f) => !DEV_TOOLS.includes(f)),
    ]),
  ]);

/** What the tests, CI and the benchmark scripts read. */
function toolVariables(): Set<string> {
  const names = processEnvReads([
    ...files('tests', SOURCE).filter((f) => f !== 'tests/lint/docs.test.ts'),
    ...files('src', /\.test\.ts$/),
    'playwright.config.ts',
    'vitest.config.ts',
    ...files('scripts', /\.mjs$/),
    ...DEV_TOOLS,
  ]);
  for (const [, name] of read('.ci/run').matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)) names.add(name!);
  return names;
}

/** The variables in the first column of a page's tables (`| \`NAME\` |`). */
const tableVariables = (text: string) =>
  new Set([...text.matchAll(/^\|\s*`([A-Z][A-Z0-9_]+)`\s*\|/gm)].map(([, name]) => name!));

/** The variables .env.example shows (`# NAME=…`). */
const envExampleVariables = () =>
  new Set([...read('.env.example').matchAll(/^#\s?([A-Z][A-Z0-9_]+)=/gm)].map(([, n]) => n!));

describe('environment variables', () => {
  const portal = portalVariables();
  const tools = toolVariables();
  const configuration = tableVariables(read('docs/configuration.md'));
  const testing = tableVariables(read('docs/testing.md'));

  it('finds what config.ts reads (the check itself works)', () => {
    expect(portal).toContain('DATABASE_URL');
    expect(portal).toContain('ALLOW_SANDBOX_GATEWAY');
    expect(portal).toContain('PORTAL_URL');
    expect(tools).toContain('E2E_PORT');
    expect(tools).toContain('NODE_BOOTSTRAP_DIR');
  });

  it('every variable the portal reads is in a table of docs/configuration.md', () => {
    expect([...portal].filter((name) => !configuration.has(name))).toEqual([]);
  });

  it('every variable the portal reads is in .env.example', () => {
    const example = envExampleVariables();
    expect([...portal].filter((name) => !example.has(name))).toEqual([]);
  });

  it('docs/configuration.md and .env.example name no variable the portal does not read', () => {
    expect([...configuration].filter((name) => !portal.has(name))).toEqual([]);
    expect([...envExampleVariables()].filter((name) => !portal.has(name))).toEqual([]);
  });

  it('every variable the tests, CI and benchmarks read is in docs/testing.md, and only those', () => {
    expect([...tools].filter((name) => !testing.has(name) && !configuration.has(name))).toEqual([]);
    expect([...testing].filter((name) => !tools.has(name))).toEqual([]);
  });
});

// ---- npm scripts ----------------------------------------------------------------------------

const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);

describe('npm scripts', () => {
  it.each(MANUAL)('every `npm run` script %s names exists in package.json', (path) => {
    const named = [...read(path).matchAll(/\bnpm run ([a-z][\w:.-]*)/g)].map(([, name]) => name!);
    expect(named.filter((name) => !scripts.includes(name))).toEqual([]);
  });

  it('every script of package.json is in the commands table of docs/architecture.md', () => {
    const table = read('docs/architecture.md').split('## Commands')[1]?.split('\n## ')[0] ?? '';
    const missing = scripts.filter((name) => {
      const plain = name === 'start' || name === 'test' ? `\`npm ${name}\`` : `\`npm run ${name}`;
      return !table.includes(plain);
    });
    expect(missing).toEqual([]);
  });
});

// ---- files named ----------------------------------------------------------------------------

describe('files named in the manual', () => {
  // docs/api.md is the wire contract, checked against the routes by its own test.
  it.each(MANUAL.filter((f) => f !== 'docs/api.md'))('every project path %s names in code spans exists', (path) => {
    const text = prose(read(path));
    const named = [
      ...text.matchAll(
        /`((?:src|scripts|tests|docs|public|eslint|drizzle)\/[\w./[\]-]*\.(?:ts|tsx|mjs|js|astro|md|json|sql|css))\b[^`]*`/g,
      ),
    ].map(([, name]) => name!);
    expect(named.filter((name) => !existsSync(join(ROOT, name)))).toEqual([]);
  });
});

// ---- links ----------------------------------------------------------------------------------

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a markdown file's headings, numbered as GitHub numbers repeats (`x`, `x-1`). */
function anchors(path: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(read(path)).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(heading!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/**
 * Pages of the manual written on a branch that has not landed yet, linked already. Remove an entry
 * when its page is in the tree (it is checked like any other page then).
 */
const PENDING_PAGES = new Set<string>([]);

/** Where each relative link of a markdown file points, and whether it resolves. */
function brokenLinks(path: string): string[] {
  const broken: string[] = [];
  const text = proseOnly(read(path));
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z+.-]*:/i.test(target!)) continue; // https:, mailto:
    const [file, anchor] = target!.split('#') as [string, string | undefined];
    const resolved = file === '' ? join(ROOT, path) : resolve(dirname(join(ROOT, path)), decodeURI(file));
    if (!existsSync(resolved)) {
      if (PENDING_PAGES.has(relative(ROOT, resolved))) continue;
      broken.push(`${target} (no ${relative(ROOT, resolved)})`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith('.md') && !anchors(relative(ROOT, resolved)).has(anchor))
      broken.push(`${target} (no heading #${anchor})`);
  }
  return broken;
}

describe('links', () => {
  it('finds headings and broken links (the check itself works)', () => {
    expect(slug('Badge desk (back office)')).toBe('badge-desk-back-office');
    expect(slug('GET /api/v1/events/{eventId}')).toBe('get-apiv1eventseventid');
    expect(slug('`order_events`: the audit trail')).toBe('order_events-the-audit-trail');
    expect(anchors('docs/testing.md')).toContain('budgets');
  });

  it.each(ALL_DOCS)('every relative link and anchor of %s resolves', (path) => {
    expect(brokenLinks(path)).toEqual([]);
  });

  it('the decisions index of docs/architecture.md lists every decision record', () => {
    const index = read('docs/architecture.md');
    const records = readdirSync(join(ROOT, 'docs/decisions')).filter((f) => /^\d{3}-.*\.md$/.test(f));
    expect(records.length).toBeGreaterThan(30);
    expect(records.filter((record) => !index.includes(`](decisions/${record})`))).toEqual([]);
  });
});

// ---- the front door -------------------------------------------------------------------------

describe('README', () => {
  it('stays a front door: under 15 KB, the manual in docs/', () => {
    expect(Buffer.byteLength(read('README.md'))).toBeLessThan(15_000);
  });

  it('links every page of the manual', () => {
    const readme = read('README.md');
    const pages = files('docs', /\.md$/).filter((f) => !f.startsWith('docs/decisions/'));
    expect(pages.filter((page) => !readme.includes(`](${page})`))).toEqual([]);
  });
});
