// Sequences (drip e-mails): the list, one sequence with its report, its steps, and its switches.
import { API } from '#shared/api-paths.ts';
import { mutate } from '#admin/lib/query.ts';
import type { Json } from '#shared/json.ts';
import type { SequenceDto, SequenceInput, SequenceStepDto, SequenceSummaryDto, StepInput } from '#shared/schemas/sequences.ts';

export { DELAY_UNITS, SequenceInputSchema, StepInputSchema, TRIGGER_TYPES } from '#shared/schemas/sequences.ts';
export type Sequence = Json<SequenceDto>;
export type SequenceSummary = Json<SequenceSummaryDto>;
export type SequenceStep = Json<SequenceStepDto>;

const failed = (what: string) => ({ title: 'Error', description: `Failed to ${what}. Please try again.` });

export const createSequence = (input: SequenceInput) => mutate<Sequence>('POST', API.sequences, input, failed('create the sequence'));
export const updateSequence = (id: number, input: SequenceInput) => mutate<Sequence>('PUT', API.sequence(id), input, failed('save the sequence'));
export const deleteSequence = (id: number) => mutate<void>('DELETE', API.sequence(id), undefined, failed('delete the sequence'));
export const setRunning = (id: number, on: boolean) => mutate<Sequence>('POST', API.sequenceAction(id, on ? 'activate' : 'pause'), {}, failed(on ? 'activate the sequence' : 'pause the sequence'));
export const enrol = (id: number, who: { emails?: string[]; segmentId?: number }) => mutate<{ enrolled: number }>('POST', API.sequenceAction(id, 'enroll'), who, failed('enrol the subscribers'));

/** The saved segments, to enrol everyone one matches. */
export interface SegmentChoice {
  id: number;
  name: string;
  count: number;
}
export const addStep = (id: number, input: StepInput) => mutate<SequenceStep>('POST', API.sequenceSteps(id), input, failed('add the step'));
export const updateStep = (id: number, stepId: number, input: StepInput) => mutate<SequenceStep>('PUT', API.sequenceStep(id, stepId), input, failed('save the step'));
export const deleteStep = (id: number, stepId: number) => mutate<void>('DELETE', API.sequenceStep(id, stepId), undefined, failed('delete the step'));
