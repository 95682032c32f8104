// Segments: saved rules over the list, their counts, and the count of rules still being edited.
import { API } from '#shared/api-paths.ts';
import { api } from '#lib/api-client.ts';
import type { SegmentDto, SegmentInput, SegmentMatch } from '#shared/schemas/audience.ts';

export type Segment = SegmentDto;
export type { SegmentInput, SegmentMatch };

export const SEGMENTS_PATH = API.segments;
export const createSegment = (input: SegmentInput) => api<Segment>('POST', API.segments, input);
export const updateSegment = (id: number, input: SegmentInput) => api<Segment>('PUT', API.segment(id), input);
export const deleteSegment = (id: number) => api<{ success: true }>('DELETE', API.segment(id));
/** How many active subscribers the rules match now. */
export const countSegment = (match: SegmentMatch) => api<{ count: number }>('POST', API.segmentCount, { match });
