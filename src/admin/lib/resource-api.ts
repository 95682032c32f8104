// The calls of one admin resource (list, create, update, delete), with the toast each write
// shows when it fails: 'Failed to create podcast episode. Please try again.' and so on.
import { mutate, useQuery } from '#admin/lib/query.ts';

export function resourceApi<T, Input>(list: string, one: (id: number) => string, names: { plural: string; singular: string }) {
  const failed = (verb: string) => ({ title: 'Error', description: `Failed to ${verb}. Please try again.` });
  return {
    /** Every item, as the admin list shows them. */
    useList: () => useQuery<T[]>(list, `Failed to fetch ${names.plural}`),
    create: (input: Input) => mutate<T>('POST', list, input, failed(`create ${names.singular}`)),
    update: (id: number, input: Input) => mutate<T>('PUT', one(id), input, failed(`update ${names.singular}`)),
    remove: (id: number) => mutate<{ success: true }>('DELETE', one(id), undefined, failed(`delete the ${names.singular}`)),
  };
}
