import type { APIRoute } from 'astro';
import { blogFeed } from '#server/services/feeds.ts';

export const GET: APIRoute = ({ locals }) => new Response(blogFeed(locals.site), { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' } });
