// Spam defences for public forms: a honeypot field and a minimum time the form was open.
import { badRequest } from './errors.ts';

export const MIN_FILL_MS = 800;

/**
 * 'bot' when the honeypot is filled (the caller answers as if it worked and stores nothing);
 * throws 400 when the form was sent faster than a person could fill it.
 */
export function screenBots(body: { website?: string; elapsedMs?: number }): 'bot' | 'ok' {
  if (body.website && body.website.trim() !== '') return 'bot';
  if (body.elapsedMs !== undefined && body.elapsedMs < MIN_FILL_MS) throw badRequest('That was quick! Please check the form and send it again.');
  return 'ok';
}
