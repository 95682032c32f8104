// UploadThing storage, used instead of UPLOADS_DIR when UPLOADTHING_TOKEN is set. The file has
// already been received and checked by our own server (size, and type from its bytes); this
// hands it to UploadThing through its server SDK and answers the public URL UploadThing gives.
// UPLOADTHING_INGEST_URL (the SDK's documented `ingestUrl` setting) points it elsewhere, e.g.
// at the local test double.
import { openAsBlob } from 'node:fs';
import type { UTApi } from 'uploadthing/server';
import type { UploadFileResult } from 'uploadthing/types';
import { env } from '#server/env.ts';
import { HttpError } from '#server/http/errors.ts';
import { logger } from '#server/log.ts';

let utapi: UTApi | undefined;

/**
 * The SDK, loaded at the first upload rather than with the module: it is several hundred
 * modules (Effect), and every server process loads this module at start-up.
 */
const sdk = () => import('uploadthing/server');

/** The SDK client, made once: the configuration is fixed for the life of the process. */
async function client(): Promise<UTApi> {
  const { UPLOADTHING_TOKEN: token, UPLOADTHING_INGEST_URL: ingestUrl } = env();
  if (!token) throw new Error('UploadThing is not configured');
  const { UTApi } = await sdk();
  utapi ??= new UTApi({ token, ...(ingestUrl ? { ingestUrl } : {}), logLevel: 'Error' });
  return utapi;
}

const UNAVAILABLE = 'The file could not be stored on UploadThing. Please try again.';

interface RemoteFile {
  url: string;
  key: string;
}

/** Uploads a checked file to UploadThing; a refusal or an unreachable service answers 502. */
export async function storeOnUploadThing(file: string, name: string, contentType: string): Promise<RemoteFile> {
  const blob = await openAsBlob(file, { type: contentType });
  const { UTFile } = await sdk();
  const upload = new UTFile([blob], name, { type: contentType });
  let result: UploadFileResult;
  try {
    result = await (await client()).uploadFiles(upload);
  } catch (err) {
    logger.error({ err }, 'UploadThing upload failed');
    throw new HttpError(502, UNAVAILABLE);
  }
  if (result.error || !result.data?.ufsUrl) {
    logger.error({ error: result.error }, 'UploadThing refused an upload');
    throw new HttpError(502, UNAVAILABLE);
  }
  return { url: result.data.ufsUrl, key: result.data.key };
}
