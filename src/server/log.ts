// Structured logs (JSON lines) for the server process.
import pino from 'pino';

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'warn' : 'info'),
  // No pid/hostname on every line.
  base: null,
  redact: ['req.headers.cookie', 'req.headers.authorization', '*.password'],
});
