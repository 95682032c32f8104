import type { APIRoute } from 'astro';
import { feedHeaders, newsletterFeed } from '#server/content/feeds.ts';

/** The public archive of the newsletter as RSS. */
export const GET: APIRoute = ({ locals }) => new Response(newsletterFeed(locals.site), { headers: feedHeaders(locals.sitePreview) });
