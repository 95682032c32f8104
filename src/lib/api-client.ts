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

/** Calls the site's API: a body is sent as JSON, or as it is when it is FormData (multipart). */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const json = body !== undefined && !(body instanceof FormData);
  const res = await fetch(path, {
    method,
    credentials: 'include',
    headers: json ? { 'Content-Type': 'application/json' } : {},
    body: json ? JSON.stringify(body) : body instanceof FormData ? body : null,
  });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text, res.statusText);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The message to show a person for a failed call. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.serverMessage ?? fallback;
  return fallback;
}
