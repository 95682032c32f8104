// Every API route goes through `endpoint()`: auth level (required), Origin check on writes,
// zod parsing of params, query and body, and one error shape with the contract's codes.
import type { APIContext, APIRoute } from 'astro';
import * as z from 'zod';
import { logger } from '#server/log.ts';
import { JSON_BODY_LIMIT, bodyTooLarge, isJsonType, readText } from '#server/http/body.ts';
import { contentChanged, type ContentChange } from '#server/http/pages/page-cache.ts';
import { requireAdmin, requireUser, type SessionUser } from '#server/accounts/session.ts';
import { HttpError, badRequest, errorResponse, fromZod, notFound, type Issue } from '#server/http/errors.ts';
import { checkOrigin, WRITE_METHODS } from '#server/http/origin.ts';
import { getDb } from '#server/db.ts';
import { actionOf, actorOf, recordAudit, summaryOf } from '#server/accounts/security/audit.ts';
import { formAnswer, isFormPost, readFormPost, typedValues, type FormPost } from '#server/http/form-post.ts';

export type AuthLevel = 'public' | 'user' | 'admin';

interface Options<A extends AuthLevel, P extends z.core.$ZodType, Q extends z.core.$ZodType, B extends z.core.$ZodType> {
  auth: A;
  /**
   * What a successful write changes on public pages, so only those are refreshed: false for
   * nothing (login, subscribe, uploads...) or for writes that say so themselves (posts,
   * episodes). By default everything, dropped at once.
   */
  changesContent?: false | ContentChange;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * Also take the body as a browser's form post (no JavaScript): the answer is then a 303 to
   * the form's page with a flash message instead of JSON.
   */
  form?: FormOptions;
  /**
   * Any site may send this write, so its Origin is not checked: only for anonymous writes that
   * act on no session (a newsletter sign-up pasted on another site), which have their own bot
   * checks and rate limits instead.
   */
  crossSite?: A extends 'public' ? true : never;
}

export interface FormOptions {
  /** The message the page shows after a successful post, from the JSON answer. */
  success: (answer: Record<string, unknown>) => string;
  /** Where the browser goes after success, when not back to the form. */
  next?: (answer: Record<string, unknown>) => string;
  /** After success, another page shows the message, for the form named there. */
  successAt?: { path: string; form: string };
}

export interface HandlerContext<A extends AuthLevel, P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** Always set on 'user' and 'admin' routes. */
  user: A extends 'public' ? SessionUser | null : SessionUser;
  request: Request;
  context: APIContext;
}

type Out<T extends z.core.$ZodType | undefined> = T extends z.core.$ZodType ? z.output<T> : undefined;

async function readJson(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > JSON_BODY_LIMIT) throw bodyTooLarge(undefined, declared);
  // No body and no type at all (a POST that only names its action): the schema's defaults apply.
  // A browser's cross-site form always sends a type, so this opens nothing to it.
  if (!request.headers.has('content-type') && declared === 0 && !request.headers.has('transfer-encoding')) return {};
  // Only JSON itself: 'text/plain; application/json' is a type a cross-site form can send
  // without a preflight.
  if (!isJsonType(request.headers.get('content-type'))) {
    throw new HttpError(415, 'Send the body as JSON (Content-Type: application/json)');
  }
  const text = await readText(request, JSON_BODY_LIMIT);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('Invalid JSON body');
  }
}

function parse<T extends z.core.$ZodType>(schema: T, input: unknown, where: string): z.output<T> {
  const result = z.safeParse(schema, input);
  if (!result.success) throw fromZod(result.error, where === 'body' ? [] : [where]);
  return result.data;
}

function parseParams<T extends z.core.$ZodType>(schema: T, input: unknown): z.output<T> {
  const result = z.safeParse(schema, input);
  if (!result.success) throw notFound('Not found');
  return result.data;
}

/** Turns any thrown value into a Response: HttpErrors as they are, the rest as a logged 500. */
export function toErrorResponse(err: unknown, requestId: string): Response {
  if (err instanceof Response) return err;
  if (err instanceof HttpError) return errorResponse(err);
  if (err instanceof z.ZodError) return errorResponse(fromZod(err));
  const code = (err as { code?: string } | null)?.code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE') return errorResponse(new HttpError(409, 'That already exists'));
  if (code === 'SQLITE_BUSY') return errorResponse(new HttpError(503, 'The server is busy, please try again'));
  logger.error({ err, requestId }, 'unhandled error');
  return Response.json({ message: 'Something went wrong on our side. Please try again.', requestId }, { status: 500, headers: { 'Cache-Control': 'no-store' } });
}

export function endpoint<
  A extends AuthLevel,
  P extends z.core.$ZodType = z.core.$ZodType<undefined>,
  Q extends z.core.$ZodType = z.core.$ZodType<undefined>,
  B extends z.core.$ZodType = z.core.$ZodType<undefined>,
>(options: Options<A, P, Q, B>, handler: (ctx: HandlerContext<A, Out<P>, Out<Q>, Out<B>>) => unknown): APIRoute {
  const route: APIRoute = async (context) => {
    const { request, locals, url } = context;
    let formPost: FormPost | null = null;
    try {
      const user = options.auth === 'admin' ? requireAdmin(locals) : options.auth === 'user' ? requireUser(locals) : locals.user;
      if (!options.crossSite) checkOrigin(request.method, request.headers, url.origin);
      // A malformed id in the path names nothing: 404, like an unknown one.
      const params = options.params ? parseParams(options.params, context.params) : undefined;
      const query = options.query ? parse(options.query, Object.fromEntries(url.searchParams), 'query') : undefined;
      formPost = options.form && isFormPost(request) ? await readFormPost(request) : null;
      const body = options.body ? parse(options.body, formPost ? formPost.fields : await readJson(request), 'body') : undefined;
      const result = await handler({ params: params as Out<P>, query: query as Out<Q>, body: body as Out<B>, user: user as HandlerContext<A, unknown, unknown, unknown>['user'], request, context });
      if (WRITE_METHODS.has(request.method) && options.changesContent !== false) contentChanged(options.changesContent);
      if (options.auth === 'admin' && WRITE_METHODS.has(request.method) && user) await auditWrite(user, context, body, result);
      if (formPost && options.form) return await formSuccess(options.form, formPost, result);
      if (result instanceof Response) return result;
      if (result === undefined) return new Response(null, { status: 204 });
      return Response.json(result, { headers: { 'Cache-Control': 'no-store' } });
    } catch (err) {
      const answer = toErrorResponse(err, locals.requestId);
      return formPost ? formFailure(formPost, answer) : answer;
    }
  };
  return route;
}

/** An admin's write that succeeded leaves one audit row: who, what, the id and a short summary. */
async function auditWrite(user: SessionUser, context: APIContext, body: unknown, result: unknown): Promise<void> {
  if (result instanceof Response && !result.ok) return;
  try {
    const answer: unknown = result instanceof Response ? ((result.headers.get('content-type') ?? '').includes('json') ? await result.clone().json() : null) : result;
    const params = Object.values(context.params).filter(Boolean).join('/');
    const id = answer && typeof answer === 'object' && 'id' in answer ? answer.id : undefined;
    const answerId = typeof id === 'string' || typeof id === 'number' ? String(id) : '';
    recordAudit(getDb(), actorOf(user), { action: actionOf(context.request.method, context.routePattern), targetId: params || answerId, summary: summaryOf(answer, body) });
  } catch (err) {
    logger.error({ err, route: context.routePattern }, 'audit: an admin write could not be recorded');
  }
}

/** A successful form post: on to the next page, or back to the form with its message. */
async function formSuccess(options: FormOptions, post: FormPost, result: unknown): Promise<Response> {
  const answer = (
    result instanceof Response
      ? await result
          .clone()
          .json()
          .catch(() => ({}))
      : (result ?? {})
  ) as Record<string, unknown>;
  const cookies = result instanceof Response ? result.headers.getSetCookie() : [];
  const message = options.success(answer);
  if (options.next) return formAnswer(options.next(answer), null, cookies);
  const { path, form } = options.successAt ?? { path: post.returnTo, form: post.form };
  return formAnswer(path, { form, kind: 'success', message, values: typedValues(post.fields) }, cookies);
}

/** A refused form post: back to the form with the message, field errors and what was typed. */
async function formFailure(post: FormPost, answer: Response): Promise<Response> {
  const { message, issues } = (await answer.json().catch(() => ({}))) as { message?: string; issues?: Issue[] };
  return formAnswer(post.returnTo, { form: post.form, kind: 'error', message: message ?? 'Something went wrong. Please try again.', issues, values: typedValues(post.fields) });
}

/** An answer that sets cookies (a sign-in's, a sign-out's): JSON, or no content when `data` is null. */
export function withCookies(data: unknown, setCookies: string[]): Response {
  const headers = new Headers({ 'Cache-Control': 'no-store' });
  for (const c of setCookies) headers.append('Set-Cookie', c);
  return data === null ? new Response(null, { status: 204, headers }) : Response.json(data, { headers });
}

/** JSON with a status other than 200 (e.g. 201 Created). */
export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(data, { status, headers: { 'Cache-Control': 'no-store', ...headers } });
}
