// Process-wide singletons of the server: configuration, database, auth.
import { getDb as openSharedDb, type Db } from '#db/client.ts';
import { createAuth, type Auth } from './auth.ts';
import { env } from './env.ts';
import { assignLegacyGuids } from './services/legacy-guids.ts';

let auth: Auth | undefined;
let guidsAssigned = false;

/** The process's database; the first call also gives rows from before stored GUIDs theirs. */
export function getDb(): Db {
  const db = openSharedDb();
  if (!guidsAssigned) {
    guidsAssigned = true;
    assignLegacyGuids(db, env().SITE_URL);
  }
  return db;
}

/** The better-auth instance bound to this process's database and configuration. */
export function getAuth(): Auth {
  auth ??= createAuth(getDb(), env());
  return auth;
}

export { env };
