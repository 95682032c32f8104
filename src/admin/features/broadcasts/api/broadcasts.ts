// Newsletter issues: drafts, test sends, sending and its switches.
import { API } from '#shared/api-paths.ts';
import { mutate } from '#admin/lib/query.ts';
import type { Json } from '#shared/json.ts';
import type { BroadcastDto, BroadcastInput } from '#shared/schemas/broadcast.ts';

export { BroadcastInputSchema, BroadcastTestSchema } from '#shared/schemas/broadcast.ts';
export type Broadcast = Json<BroadcastDto>;

export const createIssue = (input: BroadcastInput) => mutate<Broadcast>('POST', API.broadcasts, input, { title: 'Error', description: 'Failed to save the issue. Please try again.' });
export const updateIssue = (id: number, input: BroadcastInput) => mutate<Broadcast>('PUT', API.broadcast(id), input, { title: 'Error', description: 'Failed to save the issue. Please try again.' });
export const sendTest = (id: number, email: string) => mutate('POST', API.broadcastAction(id, 'test'), { email }, { title: 'Error', description: 'Failed to send the test. Please try again.' });
export const act = (id: number, action: 'send' | 'pause' | 'resume' | 'cancel' | 'retry-failed') =>
  mutate<Broadcast>('POST', API.broadcastAction(id, action), {}, { title: 'Error', description: `Failed to ${action.replace('-', ' ')}. Please try again.` });
