// What an operator copies from deploy/: systemd accepts the units and the timer as written (with
// this checkout standing in for /srv/coach-site), the site's unit is hardened, the Node they start
// is one the site runs on, and both environment templates list every variable the site reads.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '#scripts/lib/paths.ts';
import { ENV_NAMES, parseEnv } from '#server/env.ts';

const UNITS = ['coach-site.service', 'coach-site-backup.service', 'coach-site-backup.timer'];
const ANALYZE = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) => existsSync(p));
if (!ANALYZE) console.warn('deploy-files.test.ts: systemd-analyze is not installed (Debian package systemd): the unit checks are skipped');

/** The units as installed on a server whose code is this checkout, in a folder of their own. */
function installedUnits(): string {
  const dir = mkdtempSync(join(tmpdir(), 'units-'));
  writeFileSync(join(dir, 'site.env'), '');
  for (const unit of UNITS) {
    const text = readFileSync(join(ROOT, 'deploy', unit), 'utf8')
      .replaceAll('/srv/coach-site', ROOT.replace(/\/$/, ''))
      .replaceAll('/etc/coach-site/site.env', join(dir, 'site.env'));
    writeFileSync(join(dir, unit), text);
  }
  return dir;
}

/** KEY=value lines of an environment file (comments and blank lines left out). */
function readEnvFile(file: string): Map<string, string> {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  return new Map(lines.filter((l) => /^[A-Z][A-Z0-9_]*=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const));
}

describe.skipIf(!ANALYZE)('systemd units', () => {
  it('pass systemd-analyze verify without a warning', () => {
    const dir = installedUnits();
    const r = spawnSync(ANALYZE!, ['verify', ...UNITS.map((u) => join(dir, u))], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('run the site as its own user, unable to write outside its data folder or gain privileges', () => {
    const dir = installedUnits();
    for (const unit of ['coach-site.service', 'coach-site-backup.service']) {
      const r = spawnSync(ANALYZE!, ['security', '--offline=true', '--json=short', join(dir, unit)], { encoding: 'utf8' });
      const checks = new Map((JSON.parse(r.stdout) as { json_field: string; set: boolean }[]).map((c) => [c.json_field, c.set]));
      for (const field of ['UserOrDynamicUser', 'NoNewPrivileges', 'ProtectSystem', 'ProtectHome', 'PrivateTmp']) expect([unit, field, checks.get(field)]).toEqual([unit, field, true]);
    }
  });
});

describe('deploy files', () => {
  it('start a Node.js the site runs on (22.12 or later)', () => {
    const r = spawnSync(join(ROOT, 'deploy/node'), ['-p', 'process.versions.node'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(r.status, r.stderr).toBe(0);
    const [major, minor] = r.stdout.trim().split('.').map(Number);
    expect(major > 22 || (major === 22 && minor >= 12), r.stdout).toBe(true);
  });

  it('list every variable the site reads in .env.example and deploy/site.env', () => {
    for (const file of ['.env.example', 'deploy/site.env']) {
      const listed = readEnvFile(file);
      expect([file, ENV_NAMES.filter((name) => !listed.has(name))]).toEqual([file, []]);
      expect([file, [...listed.keys()].filter((name) => !ENV_NAMES.includes(name))]).toEqual([file, []]);
    }
  });

  it('configure the server template for https behind one proxy, listening on this machine only', () => {
    const env = parseEnv({ ...Object.fromEntries(readEnvFile('deploy/site.env')), DATABASE_URL: join(mkdtempSync(join(tmpdir(), 'site-env-')), 'site.db') });
    expect(env.SITE_URL).toMatch(/^https:\/\//);
    expect(env.TRUST_PROXY).toBe(1);
    expect(env.HOST).toBe('127.0.0.1');
    expect(env.RATE_LIMITS).toBe('on');
    expect(env.SEED_DEMO).toBe(false);
  });
});
