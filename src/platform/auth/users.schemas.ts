// Request and response shapes of /api/users and of accepting an invitation. A user record
// never carries a password hash or a TOTP secret.
import { Type } from 'typebox';
import { nullable } from '../http/nullable.ts';
import { pageQueryProperties } from '../http/paging.ts';
import { Uuid } from '../http/schema-basics.ts';
import { named } from '../http/schema-names.ts';
import { syncQueryProperties } from '../http/sync.ts';
import { Email, PasswordHash } from './auth.schemas.ts';
import { RoleRef } from './roles.schemas.ts';

const NullableTimestamp = nullable(Type.String({ format: 'date-time' }));

export const User = named(
  'User',
  Type.Object({
    id: Uuid,
    email: Type.String(),
    name: Type.String(),
    role: Type.String({ description: 'A built-in role name or a custom role id' }),
    roleName: Type.String({ description: 'The role as a person reads it' }),
    active: Type.Boolean(),
    invitationPending: Type.Boolean({
      description: 'Invited without a password and has not accepted the invitation yet',
    }),
    twoFactorEnabled: Type.Boolean(),
    lastLoginAt: NullableTimestamp,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({
      format: 'date-time',
      description: 'The last change to the user: name, role, status, password or two-factor',
    }),
    deactivatedAt: NullableTimestamp,
  }),
);

export const UserListQuery = Type.Object(
  {
    ...pageQueryProperties,
    ...syncQueryProperties(['createdAt', 'updatedAt'], 'by name'),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Name or e-mail contains (any case)' })),
    role: Type.Optional(RoleRef),
    isActive: Type.Optional(
      Type.Boolean({ description: 'Only active (true) or deactivated (false) users, as every list says it' }),
    ),
    // The name this filter had before issue 35 (every other list says isActive): still read.
    active: Type.Optional(
      Type.Boolean({ deprecated: true, description: 'Deprecated: the same as isActive' }),
    ),
  },
  { additionalProperties: false },
);

const RoleId = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'A built-in role name (owner, admin, accountant, ...) or the id of a custom role',
});

export const UserCreate = named(
  'UserInvite',
  Type.Object(
    {
      email: Email,
      name: Type.String({ minLength: 1, maxLength: 200 }),
      roleId: RoleId,
      password: Type.Optional(PasswordHash),
    },
    {
      additionalProperties: false,
      examples: [{ email: 'thandi@example.co.za', name: 'Thandi Nkosi', roleId: 'accountant' }],
    },
  ),
);

export const UserUpdate = named(
  'UserUpdate',
  Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      roleId: Type.Optional(RoleId),
      active: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
);

export const AcceptInvitationBody = named(
  'InvitationAcceptance',
  Type.Object(
    {
      token: Type.String({
        minLength: 1,
        maxLength: 400,
        description: 'The token from the invitation e-mail',
      }),
      password: PasswordHash,
    },
    { additionalProperties: false },
  ),
);
