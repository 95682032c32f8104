import * as z from 'zod';
import { endpoint } from '#server/http/endpoint.ts';
import { getPostBySlug, requireVisiblePost, withTags } from '#server/services/blog-posts.ts';

const Params = z.object({ slug: z.string().min(1).max(255) });

export const GET = endpoint({ auth: 'public', params: Params }, ({ params, user }) => withTags(requireVisiblePost(getPostBySlug(params.slug), Boolean(user?.isAdmin))));
