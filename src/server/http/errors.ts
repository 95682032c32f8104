// The one error shape every endpoint answers with: { message, issues? }.
import type * as z from 'zod';

export interface Issue {
  path: (string | number)[];
  message: string;
}

export class HttpError extends Error {
  readonly status: number;
  readonly issues?: Issue[] | undefined;
  readonly headers?: Record<string, string> | undefined;

  constructor(status: number, message: string, issues?: Issue[], headers?: Record<string, string>) {
    super(message);
    this.status = status;
    this.issues = issues;
    this.headers = headers;
  }
}

export const badRequest = (message: string, issues?: Issue[]) => new HttpError(400, message, issues);
export const unauthorized = (message = 'Unauthorized') => new HttpError(401, message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string, issues?: Issue[]) => new HttpError(409, message, issues);

/** Field errors of a failed zod parse, with the schema's own messages. */
export function fromZod(error: z.ZodError, prefix: (string | number)[] = []): HttpError {
  const issues = error.issues.map((i) => ({ path: [...prefix, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], message: i.message }));
  return badRequest(issues[0]?.message ?? 'Invalid input', issues);
}

export function errorResponse(err: HttpError): Response {
  const body: { message: string; issues?: Issue[] } = { message: err.message };
  if (err.issues?.length) body.issues = err.issues;
  return Response.json(body, { status: err.status, headers: { 'Cache-Control': 'no-store', ...err.headers } });
}
