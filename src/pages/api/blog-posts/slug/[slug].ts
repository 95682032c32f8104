import * as z from 'zod';
import { endpoint } from '#server/app/endpoint.ts';
import { getPostBySlug, requireVisiblePost, withTags } from '#server/content/blog-posts.ts';

const Params = z.object({ slug: z.string().min(1).max(255) });

export const GET = endpoint({ auth: 'public', params: Params }, ({ params, user }) => withTags(requireVisiblePost(getPostBySlug(params.slug), Boolean(user?.isAdmin))));
