import type { APIRoute } from 'astro';
import { feedHeaders, podcastFeed } from '#server/content/feeds.ts';

export const GET: APIRoute = ({ locals }) => new Response(podcastFeed(locals.site), { headers: feedHeaders(locals.sitePreview) });
