// Shapes of the caller's own sessions (GET /auth/sessions and the revocation routes).
import { Type } from 'typebox';
import { nullable } from '../http/nullable.ts';

const Timestamp = Type.String({ format: 'date-time' });

export const SessionView = Type.Object({
  id: Type.String({ format: 'uuid' }),
  createdAt: Timestamp,
  lastUsedAt: Type.String({
    format: 'date-time',
    description: 'The sign-in or the latest refresh of this session',
  }),
  expiresAt: Timestamp,
  ip: nullable(Type.String()),
  userAgent: nullable(Type.String()),
  current: Type.Boolean({ description: 'The session of the token making this request' }),
});

export const SessionIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const RevokedCount = Type.Object({
  revoked: Type.Integer({ minimum: 0, description: 'How many sessions were revoked' }),
});

export const NoContent = Type.Null({ description: 'No body' });
