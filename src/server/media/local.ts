// Local file storage under UPLOADS_DIR: files get random names in year/month folders and
// are served by /uploads/[...path].
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { env } from '#server/env.ts';

export function uploadsRoot(): string {
  return resolve(env().UPLOADS_DIR);
}

/** A temp path inside the uploads folder (same filesystem, so the final move is a rename). */
export function tempPath(): string {
  const dir = join(uploadsRoot(), '.tmp');
  mkdirSync(dir, { recursive: true });
  return join(dir, randomBytes(16).toString('hex'));
}

/** Moves a received file into place; returns its public URL path and its path below the folder. */
export function storeLocal(tmpFile: string, ext: string): { url: string; key: string } {
  const d = new Date();
  const folder = `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  const name = `${randomBytes(12).toString('hex')}.${ext}`;
  const dir = join(uploadsRoot(), folder);
  mkdirSync(dir, { recursive: true });
  renameSync(tmpFile, join(dir, name));
  return { url: `/uploads/${folder}/${name}`, key: `${folder}/${name}` };
}

/**
 * Maps a URL path below /uploads to a file, or null when it could name anything outside the
 * uploads folder (traversal, odd characters, hidden files).
 */
export function resolveUpload(urlPath: string): string | null {
  if (!/^[0-9]{4}\/[0-9]{2}\/[a-f0-9]{24}(?:-[0-9]{2,4})?\.[a-z0-9]{2,5}$/.test(urlPath)) return null;
  const root = uploadsRoot();
  const file = resolve(root, urlPath);
  return file.startsWith(root + sep) ? file : null;
}
