// Spam defences for public forms: a honeypot field and a minimum time the form was open.
import { env } from '#server/env.ts';
import { badRequest } from './errors.ts';

/** FORM_MIN_FILL_MS (default 800); browser test suites set 0, since robots fill forms fast. */
const minFillMs = () => env().FORM_MIN_FILL_MS;

/**
 * 'bot' when the honeypot is filled (the caller answers as if it worked and stores nothing);
 * throws 400 when the form was sent faster than a person could fill it.
 */
export function screenBots(body: { website?: string | undefined; elapsedMs?: number | undefined }): 'bot' | 'ok' {
  if (body.website && body.website.trim() !== '') return 'bot';
  if (body.elapsedMs !== undefined && body.elapsedMs < minFillMs()) throw badRequest('That was quick! Please check the form and send it again.');
  return 'ok';
}
