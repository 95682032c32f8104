// What the dashboard reads: the admin lists of posts, episodes, products and subscribers
// (only the fields it shows), and whether analytics is configured.
import { API } from '#shared/api-paths.ts';
import { useQuery } from '#admin/lib/query.ts';
import type { Json } from '#shared/json.ts';
import type { PostDto } from '#shared/schemas/blog-post.ts';
import type { SubscriberDto } from '#shared/schemas/newsletter.ts';
import type { EpisodeDto } from '#shared/schemas/podcast-episode.ts';
import type { OrderDto, ProductDto } from '#shared/schemas/product.ts';
import type { AdminSettingsDto } from '#shared/schemas/settings.ts';

export type PostSummary = Pick<Json<PostDto>, 'id' | 'title' | 'slug' | 'isPublished' | 'createdAt'>;
export type EpisodeSummary = Pick<Json<EpisodeDto>, 'id' | 'title' | 'episodeNumber' | 'isPublished' | 'createdAt'>;
export type ProductSummary = Pick<Json<ProductDto>, 'id' | 'isActive'>;
export type SubscriberSummary = Pick<Json<SubscriberDto>, 'id' | 'isActive'>;
export type AdminSettings = Json<AdminSettingsDto>;
export type OrderSummary = Pick<Json<OrderDto>, 'id' | 'amount' | 'status'>;

// The list without post bodies (as on the blog screen): the dashboard shows titles and dates.
export const usePosts = () => useQuery<PostSummary[]>(API.postSummaries, 'Failed to fetch blog posts');
export const useEpisodes = () => useQuery<EpisodeSummary[]>(API.episodes, 'Failed to fetch podcast episodes');
export const useProducts = () => useQuery<ProductSummary[]>(API.products, 'Failed to fetch products');
export const useSubscribers = () => useQuery<SubscriberSummary[]>(API.subscribers, 'Failed to fetch subscribers');
export const useSettings = () => useQuery<AdminSettings>(API.settings);

export const useOrders = () => useQuery<OrderSummary[]>(API.orders);
