// Database set-up before serving: migrations (applied when the database opens), demo
// content for an empty database unless SEED_DEMO=false, and the ADMIN_USERNAME account.
//   node scripts/prepare.ts               all of it
//   node scripts/prepare.ts --migrate-only
//   node scripts/prepare.ts --seed        seed even when SEED_DEMO=false (still only when empty)
import { getDb } from '#db/client.ts';
import { seedDemo } from '#scripts/seed.ts';
import { loadEnvOrExit } from '#server/env.ts';
import { ensureAdmin } from '#server/accounts/operator.ts';

const args = new Set(process.argv.slice(2));
const env = loadEnvOrExit();

getDb();
console.log(`[prepare] database ready at ${env.DATABASE_URL}`);
if (!args.has('--migrate-only')) {
  let adminId: string | undefined;
  if (env.ADMIN_USERNAME && env.ADMIN_PASSWORD) {
    const admin = await ensureAdmin(env.ADMIN_USERNAME, env.ADMIN_PASSWORD);
    if (admin.outcome === 'refused') {
      console.error(`[prepare] admin "${env.ADMIN_USERNAME}": refused: ${admin.reason}`);
    } else {
      adminId = admin.id;
      console.log(`[prepare] admin "${env.ADMIN_USERNAME}": ${admin.outcome}`);
    }
  }
  if (env.SEED_DEMO || args.has('--seed')) {
    // Demo posts are credited to the configured admin when there is one.
    const seeded = seedDemo(getDb(), adminId);
    if (seeded) console.log('[prepare] demo content added to the empty database');
  }
}
