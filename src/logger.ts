// Structured JSON logs with the request id. Credentials never reach a log line: the
// request serializer drops headers and query strings, and known secret paths are redacted.
import type { FastifyRequest } from 'fastify';

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
