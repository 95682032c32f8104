// The layers are checked by lint, in .ts and .astro files alike: an import that crosses a
// layer the wrong way fails `npm run lint`. The sources are linted as if they sat at the
// paths given (they are not part of the app).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

// The project's config, less the type-aware rules (these sources are not files of the project).
const eslint = new ESLint({ overrideConfig: [{ files: ['**/*.{ts,tsx}'], ...tseslint.configs.disableTypeChecked }] });

async function problems(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('import layers', () => {
  it('refuses browser code importing the server, in a .ts file', async () => {
    const found = await problems('src/lib/zz-layer-fixture.ts', "import { env } from '#server/env.ts';\nexport const siteUrl = () => env().SITE_URL;\n");
    expect(found.join('\n')).toContain('server/ and db/ are server-only: call the API instead');
  });

  it('refuses a component importing the database, in an .astro file', async () => {
    const code = "---\nimport { getDb } from '#server/db.ts';\nconst count = getDb().$client.prepare('select 1').get();\n---\n<p>{JSON.stringify(count)}</p>\n";
    const found = await problems('src/components/ZzLayerFixture.astro', code);
    expect(found.join('\n')).toContain('server/ and db/ are server-only: call the API instead');
  });

  it('refuses shared code importing the rest of src, db importing the server, one admin feature another, and the app importing tests', async () => {
    expect((await problems('src/shared/zz-fixture.ts', "import { toast } from '#lib/toast.ts';\nexport const t = toast;\n")).join('\n')).toContain('shared/ imports nothing from the rest of src');
    expect((await problems('db/zz-fixture.ts', "import { env } from '#server/env.ts';\nexport const e = env;\n")).join('\n')).toContain('db/ imports nothing from src');
    expect((await problems('src/admin/features/orders/zz-fixture.ts', "import Emails from '#admin/features/emails/components/emails.tsx';\nexport const E = Emails;\n")).join('\n')).toContain(
      'Admin features do not import each other',
    );
    expect((await problems('scripts/zz-fixture.ts', "import { startServer } from '#tests/support/server.ts';\nexport const s = startServer;\n")).join('\n')).toContain('Nothing imports tests/');
  });

  it('lets each layer import what it may', async () => {
    expect(await problems('src/pages/api/zz-fixture.ts', "import { env } from '#server/env.ts';\nimport { formatPrice } from '#shared/format.ts';\nexport const x = [env, formatPrice];\n")).toEqual(
      [],
    );
    expect(await problems('src/islands/zz-fixture.ts', "import { toast } from '#lib/toast.ts';\nimport { formatPrice } from '#shared/format.ts';\nexport const x = [toast, formatPrice];\n")).toEqual(
      [],
    );
  });

  it('refuses the server kernel importing a capability, and a capability importing the app wiring', async () => {
    const kernel = await problems('src/server/mail/zz-fixture.ts', "import { publishedBrand } from '#server/site/current.ts';\nexport const b = publishedBrand;\n");
    expect(kernel.join('\n')).toContain('The server kernel (http, mail, jobs, html, env, log, db) imports no capability');
    const wiring = await problems('src/server/content/zz-fixture.ts', "import { startBackgroundJobs } from '#server/app/jobs.ts';\nexport const s = startBackgroundJobs;\n");
    expect(wiring.join('\n')).toContain('Capabilities do not import src/server/app');
    // A capability stands on the kernel and on another capability's exported functions.
    expect(await problems('src/server/content/zz-fixture.ts', "import { getDb } from '#server/db.ts';\nimport { layout } from '#server/site/mail.ts';\nexport const x = [getDb, layout];\n")).toEqual(
      [],
    );
  });

  it('refuses the old styles: deep relative paths and the @/ alias', async () => {
    const found = await problems('src/server/content/zz-fixture.ts', "import { env } from '../env.ts';\nexport const e = env;\n");
    expect(found.join('\n')).toContain('Import through package.json "imports"');
  });
});

describe('import cycles', () => {
  it('refuses a circle of two files under src/server, with ./ and # imports alike', async () => {
    // no-cycle follows imports into files on disk, so the two files are written for real.
    const dir = `src/server/zz-cycle-${process.pid}`;
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(`${dir}/a.ts`, "import { b } from './b.ts';\nexport const a = (): unknown => b;\n");
      writeFileSync(`${dir}/b.ts`, `import { a } from '#server/${dir.slice('src/server/'.length)}/a.ts';\nexport const b = (): unknown => a;\n`);
      const results = await eslint.lintFiles([`${dir}/a.ts`, `${dir}/b.ts`]);
      const cycles = results.flatMap((r) => r.messages.filter((m) => m.ruleId === 'import-x/no-cycle').map(() => r.filePath));
      expect(cycles.map((f) => f.split('/').pop()).sort()).toEqual(['a.ts', 'b.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
