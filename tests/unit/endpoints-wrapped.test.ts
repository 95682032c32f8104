// Every API handler must go through endpoint() (auth level, Origin check, zod, error shape).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '#scripts/lib/paths.ts';

const API = join(ROOT, 'src/pages/api');
const VERBS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'ALL'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|js)$/.test(name) ? [p] : [];
  });
}

describe('API routes', () => {
  const routes = files(API);

  it('exist', () => {
    expect(routes.length).toBeGreaterThan(15);
  });

  it.each(routes.map((f) => relative(ROOT, f)))('%s wraps every handler in endpoint()', (file) => {
    const src = readFileSync(join(ROOT, file), 'utf8');
    const exported = [...src.matchAll(/export\s+(?:async\s+)?(?:const|function|let|var)\s+([A-Z]+)\b/g)].map((m) => m[1]);
    const handlers = exported.filter((name) => VERBS.includes(name));
    expect(handlers.length, 'exports at least one handler').toBeGreaterThan(0);
    for (const verb of handlers) {
      expect(src, `${verb} is declared as endpoint(...)`).toMatch(new RegExp(`export const ${verb} = endpoint\\(\\s*\\{\\s*auth: '(public|user|admin)'`));
    }
    expect(src).not.toMatch(/export\s+(async\s+)?function\s+(GET|POST|PUT|PATCH|DELETE|ALL)\b/);
    expect(src).not.toMatch(/export\s*\{[^}]*\b(GET|POST|PUT|PATCH|DELETE|ALL)\b/);
  });
});
