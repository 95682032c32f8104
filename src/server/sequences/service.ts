// Sequences: the owner's sequences and steps, who is in them, and the report. The sender
// (sender.ts) works through the enrolments that are due; triggers (triggers.ts) enrol people.
import { and, asc, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { sequenceDeliveries, sequenceEnrolments, sequences, sequenceSteps } from '#db/schema/sequences.ts';
import { badRequest, notFound } from '#server/http/errors.ts';
import { htmlToText, sanitizeSavedHtml } from '#server/html/sanitize.ts';
import { wakeJob } from '#server/jobs/runner.ts';
import type { Tx } from '#server/newsletter/events.ts';
import { countIf } from '#server/http/paging.ts';
import {
  UNIT_SECONDS,
  type SendingWindow,
  type SequenceDto,
  type SequenceInput,
  type SequenceReport,
  type SequenceStepDto,
  type SequenceSummaryDto,
  type StepInput,
  type EnrollInput,
  type PersonSequenceDto,
} from '#shared/schemas/sequences.ts';
import { segmentMatch, segmentWhere } from '#server/audience/segments.ts';
import { checkMerge } from './liquid.ts';

/** The background job that sends the steps that are due (woken by an enrolment or an edit). */
export const SEQUENCES_JOB = 'sequences';

type SequenceRow = typeof sequences.$inferSelect;
type StepRow = typeof sequenceSteps.$inferSelect;

const exitTagsOf = (row: Pick<SequenceRow, 'exitTags'>) => JSON.parse(row.exitTags) as string[];
export const windowOf = (row: Pick<StepRow, 'window'>) => (row.window ? (JSON.parse(row.window) as SendingWindow) : null);

function sequenceValues(input: SequenceInput) {
  const value = input.trigger.type === 'manual' ? null : input.trigger.value;
  return {
    name: input.name,
    triggerType: input.trigger.type,
    // Tag names match whatever their case, as tags do.
    triggerValue: input.trigger.type === 'tag' && value ? value.toLowerCase() : value,
    exitTags: JSON.stringify([...new Set(input.exitTags.map((t) => t.toLowerCase()))]),
    exitOnPurchase: input.exitOnPurchase,
    exitOnBooking: input.exitOnBooking,
    allowReentry: input.allowReentry,
  };
}

/** A new sequence, paused until the owner activates it. */
export function createSequence(db: Db, input: SequenceInput): SequenceDto {
  const { id } = db.insert(sequences).values(sequenceValues(input)).returning({ id: sequences.id }).get();
  return getSequence(db, id);
}

/** Changes a sequence's name, trigger and exit rules (who is in it stays where they are). */
export function updateSequence(db: Db, id: number, input: SequenceInput): SequenceDto {
  const changed = db
    .update(sequences)
    .set({ ...sequenceValues(input), updatedAt: new Date() })
    .where(eq(sequences.id, id))
    .run().changes;
  if (changed === 0) throw notFound('Sequence not found');
  return getSequence(db, id);
}

/** Deletes a sequence with its steps, enrolments and ledger. */
export function deleteSequence(db: Db, id: number): void {
  if (db.delete(sequences).where(eq(sequences.id, id)).run().changes === 0) throw notFound('Sequence not found');
}

/** Starts (or resumes) a sequence: whoever is due gets their step, at the sending rate. */
export function setSequenceStatus(db: Db, id: number, status: 'active' | 'paused'): SequenceDto {
  if (db.update(sequences).set({ status, updatedAt: new Date() }).where(eq(sequences.id, id)).run().changes === 0) throw notFound('Sequence not found');
  if (status === 'active') wakeJob(SEQUENCES_JOB);
  return getSequence(db, id);
}

/** A step's stored values, its HTML sanitised and its merge tags parsed (400 with Liquid's message when they do not). */
function stepValues(input: StepInput) {
  const content = sanitizeSavedHtml(input.content);
  if (!htmlToText(content) && !/<(img|iframe|video|audio)\b/i.test(content)) throw badRequest('Content is required', [{ path: ['content'], message: 'Content is required' }]);
  checkMerge(input.subject, false, 'subject');
  if (input.preheader) checkMerge(input.preheader, false, 'preheader');
  checkMerge(content, true, 'content');
  return {
    subject: input.subject,
    preheader: input.preheader,
    content,
    delayAmount: input.delay.amount,
    delayUnit: input.delay.unit,
    delaySeconds: input.delay.amount * UNIT_SECONDS[input.delay.unit],
    window: input.window ? JSON.stringify(input.window) : null,
  };
}

const requireSequence = (tx: Pick<Db, 'select'>, id: number) => {
  const row = tx.select().from(sequences).where(eq(sequences.id, id)).get();
  if (!row) throw notFound('Sequence not found');
  return row;
};

/** Marks the sequence changed (the sender reads its steps again) and works out again when each person's next step is due. */
function stepsChanged(tx: Pick<Db, 'update' | 'run'>, sequenceId: number): void {
  tx.update(sequences).set({ updatedAt: new Date() }).where(eq(sequences.id, sequenceId)).run();
  reschedule(tx, sequenceId);
}

/**
 * When each person still in the sequence gets their next step: its delay after their previous
 * step's send (or their enrolment), now that steps changed. Whoever has no step left waits
 * (null) for one to be added.
 */
function reschedule(tx: Pick<Db, 'run'>, sequenceId: number): void {
  tx.run(sql`update ${sequenceEnrolments} set next_due_at = (
    select coalesce(${sequenceEnrolments.lastSentAt}, ${sequenceEnrolments.enrolledAt}) + s.delay_seconds * 1000
    from ${sequenceSteps} s
    where s.sequence_id = ${sequenceEnrolments.sequenceId} and s.deleted_at is null and s.position > ${sequenceEnrolments.lastPosition}
    order by s.position limit 1)
    where ${sequenceEnrolments.sequenceId} = ${sequenceId} and ${sequenceEnrolments.status} = 'active'`);
}

/**
 * Adds a step at the end. It reaches everyone still in the sequence when they get there; those
 * who finished it (had the last step before) do not get it.
 */
export function addStep(db: Db, sequenceId: number, input: StepInput): SequenceStepDto {
  const values = stepValues(input);
  const id = db.transaction((tx) => {
    requireSequence(tx, sequenceId);
    const last = tx
      .select({ max: sql<number | null>`max(${sequenceSteps.position})` })
      .from(sequenceSteps)
      .where(eq(sequenceSteps.sequenceId, sequenceId))
      .get();
    const row = tx
      .insert(sequenceSteps)
      .values({ ...values, sequenceId, position: (last?.max ?? 0) + 1 })
      .returning({ id: sequenceSteps.id })
      .get();
    stepsChanged(tx, sequenceId);
    return row.id;
  });
  wakeJob(SEQUENCES_JOB);
  return stepsOf(db, sequenceId).find((s) => s.id === id)!;
}

/** Edits a step: whoever has not had it yet gets the new version (a new delay counts for them too). */
export function updateStep(db: Db, sequenceId: number, stepId: number, input: StepInput): SequenceStepDto {
  const values = stepValues(input);
  db.transaction((tx) => {
    const changed = tx
      .update(sequenceSteps)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(sequenceSteps.id, stepId), eq(sequenceSteps.sequenceId, sequenceId), isNull(sequenceSteps.deletedAt)))
      .run().changes;
    if (changed === 0) throw notFound('Step not found');
    stepsChanged(tx, sequenceId);
  });
  wakeJob(SEQUENCES_JOB);
  return stepsOf(db, sequenceId).find((s) => s.id === stepId)!;
}

/** Deletes a step: whoever had not reached it skips it (its sends stay in the report). */
export function deleteStep(db: Db, sequenceId: number, stepId: number): void {
  db.transaction((tx) => {
    const changed = tx
      .update(sequenceSteps)
      .set({ deletedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(sequenceSteps.id, stepId), eq(sequenceSteps.sequenceId, sequenceId), isNull(sequenceSteps.deletedAt)))
      .run().changes;
    if (changed === 0) throw notFound('Step not found');
    stepsChanged(tx, sequenceId);
  });
  wakeJob(SEQUENCES_JOB);
}

/** The steps a sequence has now, in order. */
export function liveSteps(tx: Pick<Db, 'select'>, sequenceId: number): StepRow[] {
  return tx
    .select()
    .from(sequenceSteps)
    .where(and(eq(sequenceSteps.sequenceId, sequenceId), isNull(sequenceSteps.deletedAt)))
    .orderBy(asc(sequenceSteps.position))
    .all();
}

/** The first step after `position` (null: none left). */
export function stepAfter(tx: Pick<Db, 'select'>, sequenceId: number, position: number): StepRow | null {
  return (
    tx
      .select()
      .from(sequenceSteps)
      .where(and(eq(sequenceSteps.sequenceId, sequenceId), isNull(sequenceSteps.deletedAt), gt(sequenceSteps.position, position)))
      .orderBy(asc(sequenceSteps.position))
      .limit(1)
      .get() ?? null
  );
}

/**
 * Enrols subscribers (in `tx`): only active ones, and only those not in it now; someone who went
 * through it before only when the sequence allows re-entry. Answers how many were enrolled.
 */
export function enrol(tx: Tx, sequence: Pick<SequenceRow, 'id' | 'allowReentry'>, subscriberIds: readonly number[], now = new Date()): number {
  const first = stepAfter(tx, sequence.id, 0);
  const nextDueAt = first ? new Date(now.getTime() + first.delaySeconds * 1000) : null;
  let enrolled = 0;
  for (let i = 0; i < subscriberIds.length; i += 500) {
    const ids = [...new Set(subscriberIds.slice(i, i + 500))];
    const active = tx
      .select({ id: newsletterSubscribers.id })
      .from(newsletterSubscribers)
      .where(and(inArray(newsletterSubscribers.id, ids), eq(newsletterSubscribers.isActive, true), isNull(newsletterSubscribers.bouncedAt)))
      .all()
      .map((r) => r.id);
    if (active.length === 0) continue;
    const before = tx
      .select({ subscriberId: sequenceEnrolments.subscriberId, status: sequenceEnrolments.status })
      .from(sequenceEnrolments)
      .where(and(eq(sequenceEnrolments.sequenceId, sequence.id), inArray(sequenceEnrolments.subscriberId, active)))
      .all();
    const kept = new Set(before.filter((e) => e.status === 'active' || !sequence.allowReentry).map((e) => e.subscriberId));
    const rows = active.filter((id) => !kept.has(id)).map((subscriberId) => ({ sequenceId: sequence.id, subscriberId, enrolledAt: now, nextDueAt }));
    if (rows.length === 0) continue;
    tx.insert(sequenceEnrolments).values(rows).run();
    enrolled += rows.length;
  }
  if (enrolled > 0) wakeJob(SEQUENCES_JOB);
  return enrolled;
}

/** People enrolled by hand per transaction: between two, the server answers other requests. */
const ENROL_BATCH = 500;

/**
 * The owner enrols people by hand (any trigger): by id, by address, or everyone a segment
 * matches now. Answers how many were enrolled. Each batch is its own transaction, so a large
 * list never holds the server; a batch enrolled before a crash stays, and sending the same list
 * again enrols only those not in it yet.
 */
export async function enrolByHand(db: Db, sequenceId: number, who: EnrollInput): Promise<{ enrolled: number }> {
  const sequence = requireSequence(db, sequenceId);
  const ids = [...(who.subscriberIds ?? [])];
  if (who.emails?.length) {
    const known = db.select({ id: newsletterSubscribers.id }).from(newsletterSubscribers).where(inArray(newsletterSubscribers.email, who.emails)).all();
    ids.push(...known.map((r) => r.id));
  }
  if (who.segmentId !== undefined) {
    const where = segmentWhere(db, segmentMatch(db, who.segmentId));
    ids.push(
      ...db
        .select({ id: newsletterSubscribers.id })
        .from(newsletterSubscribers)
        .where(where)
        .all()
        .map((r) => r.id),
    );
  }
  let enrolled = 0;
  for (let i = 0; i < ids.length; i += ENROL_BATCH) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    enrolled += db.transaction((tx) => enrol(tx, sequence, ids.slice(i, i + ENROL_BATCH)));
  }
  return { enrolled };
}

/** Ends the active enrolments given (in `tx`), with why. */
export function exitEnrolments(tx: Pick<Db, 'update'>, enrolmentIds: readonly number[], reason: string): void {
  if (enrolmentIds.length === 0) return;
  tx.update(sequenceEnrolments)
    .set({ status: 'exited', exitReason: reason, nextDueAt: null, endedAt: new Date() })
    .where(and(inArray(sequenceEnrolments.id, [...enrolmentIds]), eq(sequenceEnrolments.status, 'active')))
    .run();
}

/** Each step's sends: sent, failed, and how many unsubscribed after it reached them. */
function stepFigures(db: Db, sequenceId: number) {
  const d = sequenceDeliveries;
  const rows = db
    .select({
      stepId: d.stepId,
      sent: countIf(sql`${d.status} = 'sent'`),
      failed: countIf(sql`${d.status} in ('failed', 'bounced')`),
      possiblyDuplicated: countIf(sql`${d.possiblyDuplicated} = 1`),
      unsubscribedAfter: countIf(sql`${d.status} = 'sent' and ${newsletterSubscribers.unsubscribedAt} >= ${d.sentAt}`),
    })
    .from(d)
    .innerJoin(sequenceSteps, eq(sequenceSteps.id, d.stepId))
    .innerJoin(sequenceEnrolments, eq(sequenceEnrolments.id, d.enrolmentId))
    .innerJoin(newsletterSubscribers, eq(newsletterSubscribers.id, sequenceEnrolments.subscriberId))
    .where(eq(sequenceSteps.sequenceId, sequenceId))
    .groupBy(d.stepId)
    .all();
  return new Map(rows.map((r) => [r.stepId, r]));
}

function stepsOf(db: Db, sequenceId: number, figures = stepFigures(db, sequenceId)): SequenceStepDto[] {
  return liveSteps(db, sequenceId).map((s) => {
    const f = figures.get(s.id);
    return {
      id: s.id,
      position: s.position,
      subject: s.subject,
      preheader: s.preheader,
      content: s.content,
      delay: { amount: s.delayAmount, unit: s.delayUnit },
      window: windowOf(s),
      sent: f?.sent ?? 0,
      failed: f?.failed ?? 0,
      unsubscribedAfter: f?.unsubscribedAfter ?? 0,
    };
  });
}

function reportOf(db: Db, sequenceId: number, figures: ReturnType<typeof stepFigures>): SequenceReport {
  const e = sequenceEnrolments;
  const people = db
    .select({
      enrolled: count(),
      active: countIf(sql`${e.status} = 'active'`),
      completed: countIf(sql`${e.status} = 'completed'`),
      exited: countIf(sql`${e.status} = 'exited'`),
      unsubscribedAfter: countIf(sql`${newsletterSubscribers.unsubscribedAt} >= ${e.enrolledAt}`),
    })
    .from(e)
    .innerJoin(newsletterSubscribers, eq(newsletterSubscribers.id, e.subscriberId))
    .where(eq(e.sequenceId, sequenceId))
    .get()!;
  let sent = 0;
  let failed = 0;
  let possiblyDuplicated = 0;
  for (const f of figures.values()) {
    sent += f.sent;
    failed += f.failed;
    possiblyDuplicated += f.possiblyDuplicated;
  }
  return { ...people, sent, failed, possiblyDuplicated };
}

/** One sequence with its steps and its report. */
export function getSequence(db: Db, id: number): SequenceDto {
  const row = requireSequence(db, id);
  const figures = stepFigures(db, id);
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    trigger: { type: row.triggerType, value: row.triggerValue },
    exitTags: exitTagsOf(row),
    exitOnPurchase: row.exitOnPurchase,
    exitOnBooking: row.exitOnBooking,
    allowReentry: row.allowReentry,
    steps: stepsOf(db, id, figures),
    ...reportOf(db, id, figures),
    createdAt: row.createdAt,
  };
}

/** Every sequence, newest first, with its report. */
export function listSequences(db: Db): SequenceSummaryDto[] {
  return db
    .select()
    .from(sequences)
    .orderBy(sql`${sequences.id} desc`)
    .all()
    .map((row) => {
      const figures = stepFigures(db, row.id);
      return { id: row.id, name: row.name, status: row.status, trigger: { type: row.triggerType, value: row.triggerValue }, steps: liveSteps(db, row.id).length, ...reportOf(db, row.id, figures) };
    });
}

export { exitTagsOf };

/** The sequences a subscriber is or was in, with the steps sent to them (oldest first). */
export function sequencesOf(db: Pick<Db, 'select'>, subscriberId: number): PersonSequenceDto[] {
  const rows = db
    .select({ enrolment: sequenceEnrolments, name: sequences.name })
    .from(sequenceEnrolments)
    .innerJoin(sequences, eq(sequences.id, sequenceEnrolments.sequenceId))
    .where(eq(sequenceEnrolments.subscriberId, subscriberId))
    .orderBy(asc(sequenceEnrolments.enrolledAt), asc(sequenceEnrolments.id))
    .all();
  return rows.map(({ enrolment: e, name }) => ({
    id: e.sequenceId,
    name,
    status: e.status,
    exitReason: e.exitReason,
    enrolledAt: e.enrolledAt,
    endedAt: e.endedAt,
    sent: db
      .select({ subject: sequenceSteps.subject, sentAt: sequenceDeliveries.sentAt })
      .from(sequenceDeliveries)
      .innerJoin(sequenceSteps, eq(sequenceSteps.id, sequenceDeliveries.stepId))
      .where(and(eq(sequenceDeliveries.enrolmentId, e.id), eq(sequenceDeliveries.status, 'sent')))
      .orderBy(asc(sequenceDeliveries.sentAt), asc(sequenceDeliveries.id))
      .all(),
  }));
}
