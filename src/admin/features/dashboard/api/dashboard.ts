// What the dashboard reads: the figures of the lists paged on the server (posts, subscribers,
// orders: their counts and the newest posts, never the whole list), the episodes and products
// (short lists), and whether analytics is configured.
import { API } from '#shared/api-paths.ts';
import { firstPageUrl } from '#admin/lib/paged-query.ts';
import { useQuery } from '#admin/lib/query.ts';
import type { PageDto } from '#shared/schemas/paging.ts';
import type { Json } from '#shared/json.ts';
import type { PostDto, PostStatsDto } from '#shared/schemas/blog-post.ts';
import type { SubscriberStatsDto } from '#shared/schemas/newsletter.ts';
import type { EpisodeDto } from '#shared/schemas/podcast-episode.ts';
import type { OrderStatsDto, ProductDto } from '#shared/schemas/product.ts';
import type { AdminSettingsDto } from '#shared/schemas/settings.ts';

export type PostSummary = Pick<Json<PostDto>, 'id' | 'title' | 'slug' | 'isPublished' | 'createdAt'>;
export type EpisodeSummary = Pick<Json<EpisodeDto>, 'id' | 'title' | 'episodeNumber' | 'isPublished' | 'createdAt'>;
export type ProductSummary = Pick<Json<ProductDto>, 'id' | 'isActive'>;
export type AdminSettings = Json<AdminSettingsDto>;

/** How many of the newest published posts and episodes the dashboard lists. */
export const RECENT = 3;

/** The dashboard's calls of the lists paged on the server, which the app also makes early. */
export const DASHBOARD_PAGES = {
  /** The newest published posts (without bodies) and the post counts. */
  posts: firstPageUrl(API.posts, { status: 'published' }, RECENT),
  /** The subscriber counts (with the smallest page). */
  subscribers: firstPageUrl(API.subscribers, {}, 1),
  /** The revenue and paid orders (with the smallest page). */
  orders: firstPageUrl(API.orders, {}, 1),
};

export const usePosts = () => useQuery<PageDto<PostSummary, PostStatsDto>>(DASHBOARD_PAGES.posts, 'Failed to fetch blog posts');
export const useEpisodes = () => useQuery<EpisodeSummary[]>(API.episodes, 'Failed to fetch podcast episodes');
export const useProducts = () => useQuery<ProductSummary[]>(API.products, 'Failed to fetch products');
export const useSubscribers = () => useQuery<PageDto<unknown, SubscriberStatsDto>>(DASHBOARD_PAGES.subscribers, 'Failed to fetch subscribers');
export const useSettings = () => useQuery<AdminSettings>(API.settings);

export const useOrders = () => useQuery<PageDto<unknown, OrderStatsDto>>(DASHBOARD_PAGES.orders);
