// The version an editor says it has seen, from `If-Match: "<tag>-N"`: a write that names an
// older version than the stored one is refused (412) rather than overwriting what another tab
// or admin saved meanwhile.
import { badRequest } from './errors.ts';

/** The version seen; undefined when the request names none (or `*`), and the write goes ahead whatever changed meanwhile. */
export type SeenVersion = number | undefined;

/** The version `If-Match: "<tag>-N"` names; 400 (naming `example`) for a header that names no such version. */
export function ifMatchVersion(request: Request, tag: string, example: string): SeenVersion {
  const ifMatch = request.headers.get('if-match');
  if (ifMatch === null || ifMatch.trim() === '*') return undefined;
  const found = new RegExp(`^\\s*"${tag}-(\\d{1,15})"\\s*$`).exec(ifMatch);
  if (!found) throw badRequest(`If-Match must name a version of ${example}`);
  return Number(found[1]);
}
