// @ts-check
/**
 * Lint rules about the shape of the tree (decision 008), resolved against real paths rather than
 * specifier patterns:
 * - `structure/feature-isolation`: a feature imports no other feature (compose them in pages);
 * - `structure/no-cycles`: no import cycle between project modules (type-only imports aside);
 * - `structure/file-names`: PascalCase for components (`.tsx`, `.astro` outside pages), kebab-case
 *   for every other module (a role suffix such as `.server`, `.store` or `.test` allowed);
 * - `structure/no-kind-literals`: no event type or registration type named outside the kinds home
 *   (code reads the registration kind instead of comparing types by name; issue 19).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const SRC = path.join(ROOT, 'src');
const ALIASES = /** @type {Record<string, string>} */ ({
  '@domain': 'src/domain',
  '@server': 'src/server',
  '@lib': 'src/lib',
  '@features': 'src/features',
  '@components': 'src/components',
  '@i18n': 'src/i18n',
  '@layouts': 'src/layouts',
});
const EXTENSIONS = ['', '.ts', '.tsx', '.astro', '.js', '.mjs', '/index.ts'];

/**
 * The project file a specifier names, or null (a package, a virtual module, a missing file).
 * @param {string} importer absolute path of the importing file
 * @param {string} specifier
 */
export function resolveProjectFile(importer, specifier) {
  let base;
  if (specifier.startsWith('.')) base = path.resolve(path.dirname(importer), specifier);
  else {
    const alias = Object.keys(ALIASES).find((a) => specifier === a || specifier.startsWith(`${a}/`));
    if (!alias) return null;
    base = path.join(ROOT, ALIASES[alias] ?? '', specifier.slice(alias.length));
  }
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The real file of a linted one (the `<script>` blocks of `X.astro` are linted as `X.astro/1.ts`). */
const realFile = (/** @type {string} */ filename) => filename.replace(/(\.astro)\/[^/]+$/, '$1');

/** @param {string} file absolute path */
const featureOf = (file) => {
  const rel = path.relative(path.join(SRC, 'features'), file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? null : (rel.split(path.sep)[0] ?? null);
};

/**
 * Calls `check(node, specifier)` for every static import/export-from and `import()` of a literal.
 * @param {(node: any, specifier: string, typeOnly: boolean) => void} check
 */
const onImports = (check) => ({
  /** @param {any} node */
  ImportDeclaration(node) {
    check(node, node.source.value, node.importKind === 'type');
  },
  /** @param {any} node */
  ExportNamedDeclaration(node) {
    if (node.source) check(node, node.source.value, node.exportKind === 'type');
  },
  /** @param {any} node */
  ExportAllDeclaration(node) {
    check(node, node.source.value, node.exportKind === 'type');
  },
  /** @param {any} node */
  ImportExpression(node) {
    if (node.source.type === 'Literal' && typeof node.source.value === 'string') check(node, node.source.value, false);
  },
});

/** @type {import('eslint').Rule.RuleModule} */
const featureIsolation = {
  meta: {
    type: 'problem',
    schema: [
      {
        type: 'object',
        properties: { allowed: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const filename = realFile(context.filename);
    const own = featureOf(filename);
    if (!own) return {};
    /** @type {Record<string, string[]>} */
    const allowedByFile = context.options[0]?.allowed ?? {};
    const allowed = allowedByFile[path.relative(ROOT, filename)] ?? [];
    return onImports((node, specifier) => {
      const target = resolveProjectFile(filename, specifier);
      const other = target && featureOf(target);
      if (other && other !== own && !allowed.includes(specifier))
        context.report({
          node,
          message: `No cross-feature imports: ${own} may not import the ${other} feature ('${specifier}'). Compose features in the page, or move what both need to @components, @lib or @domain.`,
        });
    });
  },
};

/**
 * The runtime imports of a project file (type-only imports aside), read on demand and kept while
 * the file is unchanged, so the graph is right within one lint run and across runs of an editor.
 */
const depsCache = /** @type {Map<string, { mtime: number; deps: string[] }>} */ (new Map());
const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\s+(type\s+)?[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g;
/** @param {string} file */
function depsOf(file) {
  let mtime;
  try {
    mtime = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = depsCache.get(file);
  if (cached && cached.mtime === mtime) return cached.deps;
  const deps = [];
  for (const m of readFileSync(file, 'utf8').matchAll(IMPORT_RE)) {
    if (m[1]) continue;
    const target = resolveProjectFile(file, m[2] ?? m[3] ?? '');
    if (target && /\.(ts|tsx|astro)$/.test(target)) deps.push(target);
  }
  depsCache.set(file, { mtime, deps });
  return deps;
}
/**
 * Whether `to` reaches `from` in the graph (the edge from → to would close a cycle): the path back.
 * @param {string} from
 * @param {string} to
 */
function pathBack(from, to) {
  const seen = new Set([to]);
  /** @type {Array<[string, string[]]>} */
  const queue = [[to, [to]]];
  while (queue.length) {
    const [node, trail] = /** @type {[string, string[]]} */ (queue.shift());
    for (const next of depsOf(node)) {
      if (next === from) return [...trail, from];
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([next, [...trail, next]]);
      }
    }
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
const noCycles = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const filename = realFile(context.filename);
    if (!filename.startsWith(SRC + path.sep)) return {};
    return onImports((node, specifier, typeOnly) => {
      if (typeOnly) return;
      const target = resolveProjectFile(filename, specifier);
      if (!target || !/\.(ts|tsx|astro)$/.test(target)) return;
      const back = pathBack(filename, target);
      if (back)
        context.report({
          node,
          message: `Import cycle: ${[filename, ...back].map((f) => path.relative(ROOT, f)).join(' → ')}. Move what both need to a module below them.`,
        });
    });
  },
};

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.(?:server|client|store|test|spec|d))*\.(?:ts|tsx|mjs|js)$/;
const PASCAL = /^[A-Z][A-Za-z0-9]*\.(?:tsx|astro)$/;

/** @type {import('eslint').Rule.RuleModule} */
const fileNames = {
  meta: { type: 'suggestion', schema: [] },
  create(context) {
    const rel = path.relative(ROOT, realFile(context.filename));
    if (!rel.startsWith(`src${path.sep}`) || rel.startsWith(path.join('src', 'pages'))) return {};
    const name = path.basename(rel);
    // A .tsx module is a component (PascalCase) unless it is a hook or helper module (kebab-case).
    const ok = name.endsWith('.astro') ? PASCAL.test(name) : PASCAL.test(name) || KEBAB.test(name);
    return {
      Program(node) {
        if (!ok)
          context.report({
            node,
            message: `File name '${name}': PascalCase for components (Uploader.tsx, EventCard.astro), kebab-case for every other module (event-info.ts, use-alert.tsx, orders.server.ts).`,
          });
      },
    };
  },
};

/** The one list of types (src/domain/kinds/types.ts), read from its source: the rule and the code share it. */
const TYPES_FILE = path.join(SRC, 'domain', 'kinds', 'types.ts');
let kindNames = /** @type {Set<string> | null} */ (null);
function kindLiterals() {
  if (kindNames) return kindNames;
  const text = readFileSync(TYPES_FILE, 'utf8');
  /** @param {string} name */
  const list = (name) => {
    const found = new RegExp(`export const ${name} = \\[([^\\]]*)\\] as const`).exec(text);
    const values = found ? [...(found[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1] ?? '') : [];
    if (values.length === 0) throw new Error(`structure/no-kind-literals: no ${name} list in ${TYPES_FILE}`);
    return values;
  };
  const eventTypes = list('EVENT_TYPES');
  // The families' prefixes too (`startsWith('badge_')` compares types by name as well).
  const prefixes = eventTypes.map((t) => t.slice(0, t.indexOf('_') + 1)).filter(Boolean);
  kindNames = new Set([...eventTypes, ...list('REGISTRATION_TYPES'), ...prefixes]);
  return kindNames;
}

/**
 * No event-type or registration-type literal (nor a family prefix such as `'badge_'`) outside the
 * kinds home: the files this rule is turned off for are the kinds (src/domain/kinds,
 * src/server/kinds), the seed and the tests (eslint.config.js).
 * @type {import('eslint').Rule.RuleModule}
 */
const noKindLiterals = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const names = kindLiterals();
    /**
     * @param {any} node
     * @param {unknown} value
     */
    const check = (node, value) => {
      if (typeof value === 'string' && names.has(value))
        context.report({
          node,
          message: `'${value}' names a registration kind: read the kind instead (kindOf(event.type)… from @domain/kinds, or the kind's own module). Types are named only in src/domain/kinds and src/server/kinds.`,
        });
    };
    return {
      /** @param {any} node */
      Literal(node) {
        check(node, node.value);
      },
      /** @param {any} node */
      TemplateLiteral(node) {
        if (node.expressions.length === 0) check(node, node.quasis[0]?.value.cooked);
      },
    };
  },
};

export const structureRules = {
  'feature-isolation': featureIsolation,
  'no-cycles': noCycles,
  'file-names': fileNames,
  'no-kind-literals': noKindLiterals,
};
