import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The repository's eslint.config.js on snippets: the zone comes from the (made-up) path. Files
// that do not exist are outside the TypeScript project, so the type-aware rules get them from the
// project service's default project, with the compiler options of tsconfig.json.
const PROBES = [
  'src/*/lint-probe.ts',
  'src/*/*/lint-probe.ts',
  'src/*/*/LintProbe.tsx',
  // File-name probes.
  'src/lib/useThing.ts',
  'src/lib/use-thing.ts',
  'src/components/ui/lint_probe.tsx',
];
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: {
    files: PROBES.filter((p) => !p.endsWith('.astro')),
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: PROBES,
          defaultProject: 'tsconfig.json',
          // The probes are more files than the default project's default cap of 8.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 32,
        },
      },
    },
  },
});

async function lint(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => ({ rule: m.ruleId, severity: m.severity, message: m.message }));
}
const errorsOf = async (filePath: string, code: string, rule: string) =>
  (await lint(filePath, code)).filter((m) => m.rule === rule && m.severity === 2);

// The first lint builds the TypeScript program (seconds alone, much longer on a busy machine).
describe('import boundaries (DESIGN §3, decision 008)', { timeout: 180_000 }, () => {
  it('keeps the domain free of project modules', async () => {
    const errors = await errorsOf(
      'src/domain/lint-probe.ts',
      "import { openDatabase } from '@server/db/client';\nexport const open = openDatabase;\n",
      'no-restricted-imports',
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/src\/domain imports no project module/);
  });

  it('keeps the server out of the features', async () => {
    const errors = await errorsOf(
      'src/server/services/lint-probe.ts',
      "import BadgeWizard from '@features/badges/BadgeWizard';\nexport const wizard = BadgeWizard;\n",
      'no-restricted-imports',
    );
    expect(errors).toHaveLength(1);
  });

  it('keeps pages off the server, alias or relative', async () => {
    const alias = await errorsOf(
      'src/pages/[locale]/lint-probe.astro',
      "---\nimport { getConfig } from '@server/config';\nconst site = getConfig().SITE_URL;\n---\n<p>{site}</p>\n",
      'no-restricted-imports',
    );
    expect(alias).toHaveLength(1);
    expect(alias[0]!.message).toMatch(/portal-config/);
    const relative = await errorsOf(
      'src/features/payments/lint-probe.ts',
      "export { getConfig } from '../../server/config';\n",
      'no-restricted-imports',
    );
    expect(relative.length).toBeGreaterThan(0);
    const script = await errorsOf(
      'src/pages/[locale]/lint-probe.astro',
      "<p>Hi</p>\n<script>\nimport { getRuntime } from '@server/runtime';\nconsole.log(getRuntime);\n</script>\n",
      'no-restricted-imports',
    );
    expect(script).toHaveLength(1);
    const dynamic = await errorsOf(
      'src/features/payments/LintProbe.tsx',
      "export const load = () => import('@server/runtime');\n",
      'boundaries/dynamic-imports',
    );
    expect(dynamic).toHaveLength(1);
  });

  it('lets the server read the words through @i18n/catalogues, not the pages’ i18next runtime or the JSON', async () => {
    const allowed = await lint(
      'src/server/mail/lint-probe.ts',
      [
        "import { catalogue } from '@i18n/catalogues';",
        "import { LOCALES } from '@i18n/locales';",
        "export const words = LOCALES.map((l) => catalogue('mail', l));",
        '',
      ].join('\n'),
    );
    expect(allowed).toEqual([]);
    for (const specifier of ['@i18n/i18n', '@i18n/en.json', '@i18n/mail/en.json', '@i18n/t']) {
      const errors = await errorsOf(
        'src/server/mail/lint-probe.ts',
        `import * as words from '${specifier}';\nexport const all = words;\n`,
        'no-restricted-imports',
      );
      expect(errors, specifier).toHaveLength(1);
      expect(errors[0]!.message).toMatch(/@i18n\/catalogues/);
    }
  });

  it('lets the portal-config seam read the server configuration', async () => {
    const messages = await lint(
      'src/lib/portal-config.server.ts',
      "import { getConfig } from '@server/config';\nexport const siteUrl = () => getConfig().SITE_URL;\n",
    );
    expect(messages).toEqual([]);
  });
});

describe('registration kinds named only in their home (issue 19)', { timeout: 180_000 }, () => {
  const RULE = 'structure/no-kind-literals';

  it('refuses an event type or registration type compared by name, and a family prefix', async () => {
    const errors = await errorsOf(
      'src/features/events/lint-probe.ts',
      [
        "import type { Event } from '@domain/events';",
        "export const online = (e: Event) => e.type === 'event_online';",
        "export const badge = (e: Event) => e.type.startsWith('badge_');",
        'export const market = (t: string) => t === `MARKET_ONLINE`;',
        "export type Pitching = 'pitching_story';",
        '',
      ].join('\n'),
      RULE,
    );
    expect(errors.map((e) => e.message.slice(0, e.message.indexOf("' ") + 1))).toEqual([
      "'event_online'",
      "'badge_'",
      "'MARKET_ONLINE'",
      "'pitching_story'",
    ]);
    expect(errors[0]!.message).toMatch(/read the kind instead/);
  });

  it('refuses one in a page too, and on the server outside its kinds', async () => {
    const page = await errorsOf(
      'src/pages/[locale]/lint-probe.astro',
      "---\nconst type = Astro.url.searchParams.get('t');\nconst audit = type === 'event_audit';\n---\n<p>{audit}</p>\n",
      RULE,
    );
    expect(page).toHaveLength(1);
    const server = await errorsOf(
      'src/server/orders/lint-probe.ts',
      "export const registrationType = 'BADGE_FREE';\n",
      RULE,
    );
    expect(server).toHaveLength(1);
  });

  it('lets the kinds home name its types, and leaves other words alone', async () => {
    const code = "export const type = 'market_online';\nexport const registrationType = 'MARKET_ONLINE';\n";
    expect(await errorsOf('src/domain/kinds/lint-probe.ts', code, RULE)).toEqual([]);
    expect(await errorsOf('src/server/kinds/lint-probe.ts', code, RULE)).toEqual([]);
    expect(
      await errorsOf(
        'src/features/events/lint-probe.ts',
        "export const words = ['event', 'market_place', 'summary.confirmed.event_audit', 'online'];\n",
        RULE,
      ),
    ).toEqual([]);
  });
});

describe('islands', () => {
  it('take their words as props: no catalogue or i18next runtime in the browser bundle', async () => {
    for (const [file, specifier] of [
      ['src/features/payments/LintProbe.tsx', '@i18n/i18n'],
      ['src/features/payments/LintProbe.tsx', '@i18n/catalogues'],
      ['src/components/forms/LintProbe.tsx', '@i18n/mail/en.json'],
    ] as const) {
      const errors = await errorsOf(
        file,
        `import * as words from '${specifier}';\nexport const all = words;\n`,
        'no-restricted-imports',
      );
      expect(errors, `${file} ${specifier}`).toHaveLength(1);
      expect(errors[0]!.message).toMatch(/messages as props/);
    }
    const allowed = await errorsOf(
      'src/features/payments/LintProbe.tsx',
      "import { createT } from '@i18n/t';\nimport { toLocale } from '@i18n/locales';\nexport const t = [createT, toLocale];\n",
      'no-restricted-imports',
    );
    expect(allowed).toEqual([]);
  });

  it('refuses a floating promise', async () => {
    const errors = await errorsOf(
      'src/features/payments/LintProbe.tsx',
      [
        'export function LintProbe() {',
        "  const save = async () => fetch('/api/v1/orders');",
        '  const onClick = () => {',
        '    save();',
        '  };',
        '  return <button onClick={onClick}>Save</button>;',
        '}',
        '',
      ].join('\n'),
      '@typescript-eslint/no-floating-promises',
    );
    expect(errors).toHaveLength(1);
  });

  it('refuses a hook called conditionally', async () => {
    const errors = await errorsOf(
      'src/features/payments/LintProbe.tsx',
      [
        "import { useState } from 'react';",
        'export function LintProbe({ open }: { open: boolean }) {',
        '  if (open) {',
        '    const [n] = useState(0);',
        '    return <p>{n}</p>;',
        '  }',
        '  return null;',
        '}',
        '',
      ].join('\n'),
      'react-hooks/rules-of-hooks',
    );
    expect(errors).toHaveLength(1);
  });
});

describe('the shape of the tree (eslint/structure-rules.js)', { timeout: 180_000 }, () => {
  it('refuses a feature importing another, resolved by path, and lets a feature’s folders share', async () => {
    const alias = await errorsOf(
      'src/features/badges/lint-probe.ts',
      "export { loadOrders } from '@features/orders/orders.server';\n",
      'structure/feature-isolation',
    );
    expect(alias).toHaveLength(1);
    expect(alias[0]!.message).toMatch(/badges may not import the orders feature/);
    const relative = await errorsOf(
      'src/features/badges/lint-probe.ts',
      "export { loadOrders } from '../orders/orders.server';\n",
      'structure/feature-isolation',
    );
    expect(relative).toHaveLength(1);
    // The back office's orders folder is not the registrants' orders feature.
    const inside = await errorsOf(
      'src/features/back-office/approvals/lint-probe.ts',
      "export { formView } from '../orders/form-view';\n",
      'structure/feature-isolation',
    );
    expect(inside).toEqual([]);
  });

  it('refuses a file name off the convention', async () => {
    const bad = await errorsOf('src/lib/useThing.ts', 'export const x = 1;\n', 'structure/file-names');
    expect(bad).toHaveLength(1);
    expect(await errorsOf('src/lib/use-thing.ts', 'export const x = 1;\n', 'structure/file-names')).toEqual([]);
    expect(
      await errorsOf(
        'src/components/ui/LintProbe.tsx',
        'export const LintProbe = () => null;\n',
        'structure/file-names',
      ),
    ).toEqual([]);
    expect(
      await errorsOf('src/components/ui/lint_probe.tsx', 'export const x = 1;\n', 'structure/file-names'),
    ).toHaveLength(1);
  });

  it('refuses an import that closes a cycle, and not a type-only one', async () => {
    const dir = path.join(process.cwd(), 'src/lib/cycle-probe');
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(
        path.join(dir, 'first.ts'),
        "import { second } from './second';\nexport const first = () => second;\n",
      );
      writeFileSync(
        path.join(dir, 'second.ts'),
        "import { first } from './first';\nexport const second = () => first;\n",
      );
      const errors = await errorsOf(
        'src/lib/cycle-probe/first.ts',
        "import { second } from './second';\nexport const first = () => second;\n",
        'structure/no-cycles',
      );
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message).toMatch(
        /Import cycle: src\/lib\/cycle-probe\/first\.ts → src\/lib\/cycle-probe\/second\.ts/,
      );
      const typeOnly = await errorsOf(
        'src/lib/cycle-probe/first.ts',
        "import type { second } from './second';\nexport const first = (s: typeof second) => s;\n",
        'structure/no-cycles',
      );
      expect(typeOnly).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
