import { endpoint } from '#server/app/endpoint.ts';
import { listUsers, pageUsers } from '#server/accounts/users.ts';
import { PageQuerySchema, asksForPage } from '#shared/schemas/paging.ts';

/** Every user (the plain call), or, given page, pageSize or q, one page with the counts. */
export const GET = endpoint({ auth: 'admin', query: PageQuerySchema }, ({ query }) => (asksForPage(query) ? pageUsers(query) : listUsers()));
