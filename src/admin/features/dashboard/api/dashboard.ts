// What the dashboard reads: the admin lists of posts, episodes, products and subscribers
// (only the fields it shows), and whether analytics is configured.
import { useQuery } from '#admin/lib/query.ts';

export interface PostSummary {
  id: number;
  title: string;
  slug: string;
  isPublished: boolean;
  createdAt: string;
}

export interface EpisodeSummary {
  id: number;
  title: string;
  episodeNumber: number | null;
  isPublished: boolean;
  createdAt: string;
}

export interface ProductSummary {
  id: number;
  isActive: boolean;
}

export interface SubscriberSummary {
  id: number;
  isActive: boolean;
}

export interface AdminSettings {
  analyticsConfigured: boolean;
  analyticsDashboardUrl: string | null;
  podcastOwnerEmailConfigured: boolean;
  mailConfigured: boolean;
}

// The list without post bodies (as on the blog screen): the dashboard shows titles and dates.
export const usePosts = () => useQuery<PostSummary[]>('/api/blog-posts?summary=true', 'Failed to fetch blog posts');
export const useEpisodes = () => useQuery<EpisodeSummary[]>('/api/podcast-episodes', 'Failed to fetch podcast episodes');
export const useProducts = () => useQuery<ProductSummary[]>('/api/products', 'Failed to fetch products');
export const useSubscribers = () => useQuery<SubscriberSummary[]>('/api/newsletter/subscribers', 'Failed to fetch subscribers');
export const useSettings = () => useQuery<AdminSettings>('/api/admin/settings');

export interface OrderSummary {
  id: number;
  amount: number;
  status: 'pending' | 'succeeded' | 'failed';
}

export const useOrders = () => useQuery<OrderSummary[]>('/api/admin/orders');
