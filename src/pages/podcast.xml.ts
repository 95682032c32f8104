import type { APIRoute } from 'astro';
import { feedHeaders, podcastFeed } from '#server/services/feeds.ts';

export const GET: APIRoute = ({ locals }) => new Response(podcastFeed(locals.site), { headers: feedHeaders(locals.sitePreview) });
