// The address an account without an e-mail gets, and how to tell it from a real one. A module of
// its own (it imports nothing) so that auth.ts and what auth.ts uses can both read it.

/** Users who register without an e-mail get this reserved (RFC 2606) placeholder. */
export const PLACEHOLDER_EMAIL_DOMAIN = 'no-email.invalid';
export const placeholderEmail = (name: string) => `${name.toLowerCase()}@${PLACEHOLDER_EMAIL_DOMAIN}`;
export const realEmail = (email: string | null | undefined) => (email && !email.endsWith(`@${PLACEHOLDER_EMAIL_DOMAIN}`) ? email : null);
