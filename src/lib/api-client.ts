// One way the browser calls the API: cookies sent, JSON in and out, and every non-OK answer
// turned into one error whose message is '<status>: <body text>'.
export interface FieldIssue {
  path: (string | number)[];
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  /** The server's own sentence (`message` of the JSON error body) when there is one. */
  readonly serverMessage: string | null;
  readonly issues: FieldIssue[];

  constructor(status: number, text: string, statusText: string) {
    super(`${status}: ${text || statusText}`);
    this.status = status;
    let parsed: { message?: unknown; issues?: unknown } | null;
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      parsed = null;
    }
    this.serverMessage = typeof parsed?.message === 'string' ? parsed.message : null;
    this.issues = Array.isArray(parsed?.issues) ? (parsed.issues as FieldIssue[]) : [];
  }
}

/** True for the spec's '401: ...Unauthorized' errors. */
export const isUnauthorized = (err: unknown) => err instanceof ApiError && err.status === 401;

/** Sends a call: a body as JSON, or as it is when it is FormData (multipart); a non-OK answer is thrown as an ApiError. */
async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const json = body !== undefined && !(body instanceof FormData);
  const res = await fetch(path, {
    method,
    credentials: 'include',
    headers: json ? { ...headers, 'Content-Type': 'application/json' } : headers,
    body: json ? JSON.stringify(body) : body instanceof FormData ? body : null,
  });
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
  return res;
}

/** Calls the site's API and answers its JSON. */
export async function api<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
  const text = await (await send(method, path, body, headers)).text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** GETs a file from the site's API (a download), failing as `api` does. */
export async function apiBlob(path: string): Promise<Blob> {
  return (await send('GET', path)).blob();
}

/** The message to show a person for a failed call. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.serverMessage ?? fallback;
  return fallback;
}
