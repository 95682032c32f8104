import { endpoint } from '#server/app/endpoint.ts';
import { listOrders, pageOrders } from '#server/commerce/checkout.ts';
import { asksForPage } from '#shared/schemas/paging.ts';
import { OrderPageQuerySchema } from '#shared/schemas/product.ts';

/** Every order (the plain call), or, given page, pageSize, q or status, one page with the figures. */
export const GET = endpoint({ auth: 'admin', query: OrderPageQuerySchema }, ({ query }) => (asksForPage(query) ? pageOrders(query) : listOrders()));
