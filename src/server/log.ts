// Structured logs (JSON lines) for the server process.
import { randomUUID } from 'node:crypto';
import pino from 'pino';

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'warn' : 'info'),
  // No pid/hostname on every line.
  base: null,
  redact: ['req.headers.cookie', 'req.headers.authorization', '*.password'],
});

/** The id a request is logged and answered under: the one a proxy in front gave (its first 64 characters), else a new one. */
export const requestIdFor = (given: string | null | undefined): string => given?.slice(0, 64) || randomUUID();
