import type { APIRoute } from 'astro';
import { podcastFeed } from '#server/services/feeds.ts';

export const GET: APIRoute = ({ locals }) => new Response(podcastFeed(locals.site), { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'public, max-age=300' } });
