import type { APIRoute } from 'astro';
import { newsletterFeed } from '#server/services/feeds.ts';

/** The public archive of the newsletter as RSS. */
export const GET: APIRoute = ({ locals }) => new Response(newsletterFeed(locals.site), { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' } });
