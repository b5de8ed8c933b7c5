// Structured JSON logs with the request id. Credentials never reach a log line: the
// request serializer drops headers and query strings, and known secret paths are redacted.
import type { FastifyRequest } from 'fastify';
import pino from 'pino';

export function loggerOptions(level: string) {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.refreshToken',
        '*.accessToken',
        '*.token',
        '*.totpCode',
        '*.secret',
        '*.key',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(req: FastifyRequest) {
        return {
          method: req.method,
          url: (req.url ?? '').split('?')[0],
          remoteAddress: req.ip,
        };
      },
    },
  };
}

/**
 * The service's logger, writing to `dest` (stdout by default) asynchronously: lines are
 * handed to the operating system as they come, several to a write while one is in flight,
 * instead of one blocking write per line on the request path (measured: bench/README.md).
 * `flush()` writes what is left; main.ts calls it before the process exits.
 */
export function createLogger(level: string, dest: number | string = 1) {
  const destination = pino.destination({ dest, sync: false });
  const logger = pino(loggerOptions(level), destination);
  return Object.assign(logger, { flushNow: () => destination.flushSync() });
}
