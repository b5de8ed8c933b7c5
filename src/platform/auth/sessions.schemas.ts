// Shapes of the caller's own sessions (GET /auth/sessions and the revocation routes).
import { Type } from 'typebox';
import { nullable } from '../http/nullable.ts';
import { Uuid } from '../http/schema-basics.ts';
import { named } from '../http/schema-names.ts';

const Timestamp = Type.String({ format: 'date-time' });

export const SessionView = named(
  'Session',
  Type.Object({
    id: Uuid,
    createdAt: Type.String({ format: 'date-time', description: 'The sign-in' }),
    updatedAt: Type.String({
      format: 'date-time',
      description: 'The last change: the sign-in or the latest refresh (the same as lastUsedAt)',
    }),
    lastUsedAt: Type.String({
      format: 'date-time',
      description: 'The sign-in or the latest refresh of this session',
    }),
    expiresAt: Timestamp,
    ip: nullable(Type.String()),
    userAgent: nullable(Type.String()),
    current: Type.Boolean({ description: 'The session of the token making this request' }),
  }),
);

export const RevokedCount = named(
  'SessionsRevoked',
  Type.Object({
    revoked: Type.Integer({ minimum: 0, description: 'How many sessions were revoked' }),
  }),
);

export const NoContent = Type.Null({ description: 'No body' });
