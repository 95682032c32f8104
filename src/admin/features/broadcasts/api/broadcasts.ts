// Newsletter issues: drafts, test sends, sending and its switches.
import { API } from '#shared/api-paths.ts';
import { mutate } from '#admin/lib/query.ts';
import { api } from '#lib/api-client.ts';
import type { Json } from '#shared/json.ts';
import type { BroadcastDto, BroadcastInput, DnsCheck } from '#shared/schemas/broadcast.ts';

export { BroadcastInputSchema, BroadcastTestSchema } from '#shared/schemas/broadcast.ts';
export type Broadcast = Json<BroadcastDto>;
export type { DnsCheck };

export const createIssue = (input: BroadcastInput) => mutate<Broadcast>('POST', API.broadcasts, input, { title: 'Error', description: 'Failed to save the issue. Please try again.' });
/** Each save and send names the version the editor loaded: a change made meanwhile in another tab is refused (412), not overwritten or sent unseen. */
const at = (version: number) => ({ 'If-Match': `"broadcast-${version}"` });

export const updateIssue = (id: number, input: BroadcastInput, version: number) =>
  mutate<Broadcast>('PUT', API.broadcast(id), input, { title: 'Error', description: 'Failed to save the issue. Please try again.' }, at(version));
export const sendTest = (id: number, email: string) => mutate('POST', API.broadcastAction(id, 'test'), { email }, { title: 'Error', description: 'Failed to send the test. Please try again.' });
export const act = (id: number, action: 'pause' | 'resume' | 'cancel' | 'retry-failed') =>
  mutate<Broadcast>('POST', API.broadcastAction(id, action), {}, { title: 'Error', description: `Failed to ${action.replace('-', ' ')}. Please try again.` });
/** Starts the send; no toast of its own, since a 409 about the From domain's DNS asks for a second confirmation instead. */
export const startSend = (id: number, confirmDns: boolean, version: number) => api<Broadcast>('POST', API.broadcastAction(id, 'send'), { confirmDns }, at(version));
