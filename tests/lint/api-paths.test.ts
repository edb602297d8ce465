/*
 * One client (decision 043): the paths of the registration API (`/api/v1/…`) are written in the
 * client module (src/lib/api) and in the server that defines them, nowhere else in src. Code
 * elsewhere calls `api.<capability>.<endpoint>(…)` or, for a link the browser follows itself,
 * `apiHref`. Tests may name paths (they check the wire).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Where /api/v1 paths belong: the client module, the server's routes and views, the endpoint mounting it. */
const OWNERS = [/^src\/lib\/api\//, /^src\/server\//, /^src\/pages\/api\//];

/**
 * Files allowed to name a path themselves, each with its reason; a file listed here that no longer
 * names a path fails the test below.
 */
const NOT_YET_MIGRATED = [
  // The badge desk's three calls (decision 048): the client's module sits in the islands' shared
  // chunk, which would take the desk page over its JS budget (decision 027).
  'src/features/back-office/desk/desk-api.ts',
];

const SOURCE = /\.(ts|tsx|astro|mjs|js)$/;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir))) {
    const path = join(dir, entry);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...files(path));
    else if (SOURCE.test(entry) && !/\.(test|spec)\.ts$/.test(entry)) out.push(path);
  }
  return out.sort();
}

/** The code without its comments (a path named in a doc comment is no call). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');

/** String literals (quotes, template literals, Astro attributes) that begin with an API path. */
const API_LITERAL = /(['"`])\/api\/v1(?:[/?'"`$]|\1)/;

/** The files of src naming an API path in code, with the lines. */
function offenders(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files('src')) {
    const rel = relative(ROOT, join(ROOT, file));
    if (OWNERS.some((re) => re.test(rel))) continue;
    const lines = code(readFileSync(join(ROOT, file), 'utf8'))
      .split('\n')
      .filter((line) => API_LITERAL.test(line));
    if (lines.length)
      found.set(
        rel,
        lines.map((l) => l.trim()),
      );
  }
  return found;
}

describe('API paths live in the client module', () => {
  const found = offenders();

  it('finds a path in code and not in a comment (the check itself works)', () => {
    const sample =
      "/** GET /api/v1/orders */\nconst a = '/api/v1/orders';\n// '/api/v1/x'\nconst b = `/api/v1/orders/${id}`;";
    const hits = code(sample)
      .split('\n')
      .filter((l) => API_LITERAL.test(l));
    expect(hits).toEqual(["const a = '/api/v1/orders';", 'const b = `/api/v1/orders/${id}`;']);
  });

  it('no file outside src/lib/api and the server names an /api/v1 path', () => {
    const unexpected = [...found].filter(([file]) => !NOT_YET_MIGRATED.includes(file));
    expect(Object.fromEntries(unexpected)).toEqual({});
  });

  it('every file of the allow-list still names one (remove it once it calls the client)', () => {
    expect(NOT_YET_MIGRATED.filter((file) => !found.has(file))).toEqual([]);
  });
});
