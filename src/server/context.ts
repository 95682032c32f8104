// Process-wide singletons of the server: configuration, database, auth.
import { getDb } from '../../db/client.ts';
import { createAuth, type Auth } from './auth.ts';
import { env } from './env.ts';

let auth: Auth | undefined;

/** The better-auth instance bound to this process's database and configuration. */
export function getAuth(): Auth {
  auth ??= createAuth(getDb(), env());
  return auth;
}

export { env, getDb };
