import type { APIRoute } from 'astro';
import { feedHeaders, blogFeed } from '#server/content/feeds.ts';

export const GET: APIRoute = ({ locals }) => new Response(blogFeed(locals.site), { headers: feedHeaders(locals.sitePreview) });
