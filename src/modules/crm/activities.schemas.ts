// TypeBox schemas of CRM activities: calls, meetings, tasks and notes against exactly one lead,
// opportunity or contact.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable, orNull } from '../../platform/http/nullable.ts';
import { pageQueryProperties } from '../../platform/http/paging.ts';
import { Uuid, uuid, uuidOrNull } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { syncQueryProperties } from '../../platform/http/sync.ts';
import { ACTIVITY_KINDS } from './crm.tables.ts';

const Timestamp = Type.String({ format: 'date-time' });

export const ActivityKind = named(
  'ActivityKind',
  stringEnum(ACTIVITY_KINDS, { description: 'call, meeting, task or note' }),
);

const Subject = Type.String({ minLength: 1, maxLength: 200, description: 'What it is about, in a line' });
const Notes = { type: 'string' as const, maxLength: 5000, description: 'Free text; blank is null' };
const DueAt = {
  type: 'string' as const,
  format: 'date-time',
  description: 'When it is due (ISO 8601 with an offset); null: no due time',
};
const OwnerId = uuidOrNull({ description: 'The user of the business it is for' });

export const Activity = named(
  'Activity',
  Type.Object({
    id: Uuid,
    kind: ActivityKind,
    subject: Type.String(),
    notes: nullable(Type.String()),
    dueAt: nullable(Timestamp),
    done: Type.Boolean(),
    doneAt: nullable(Timestamp, { description: 'When it was marked done; null while open' }),
    overdue: Type.Boolean({ description: 'Open and its due time has passed' }),
    ownerId: nullable(Uuid),
    leadId: nullable(Uuid),
    opportunityId: nullable(Uuid),
    contactId: nullable(Uuid),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: nullable(Timestamp, {
      description: 'Set once deleted; only a list read with updatedSince shows a deleted activity',
    }),
  }),
);

const target = (what: string) => Type.Optional(uuid({ description: `The ${what} it is against` }));

export const ActivityCreate = named(
  'ActivityCreate',
  Type.Object(
    {
      kind: ActivityKind,
      subject: Subject,
      notes: Type.Optional(orNull<string>(Notes)),
      dueAt: Type.Optional(orNull<string>(DueAt)),
      done: Type.Optional(Type.Boolean({ description: 'Already done (doneAt is now); default false' })),
      ownerId: Type.Optional(OwnerId),
      leadId: target('lead'),
      opportunityId: target('opportunity'),
      contactId: target('contact'),
    },
    {
      description:
        'Exactly one of leadId, opportunityId and contactId. ownerId defaults to the signed-in user.',
      examples: [
        {
          kind: 'call',
          subject: 'Follow up on the kitchen quote',
          notes: 'Ask about the delivery date in Paarl',
          dueAt: '2026-12-01T09:00:00+02:00',
          contactId: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b',
        },
      ],
      additionalProperties: false,
    },
  ),
);

export const ActivityUpdate = named(
  'ActivityUpdate',
  Type.Object(
    {
      kind: Type.Optional(ActivityKind),
      subject: Type.Optional(Subject),
      notes: Type.Optional(orNull<string>(Notes)),
      dueAt: Type.Optional(orNull<string>(DueAt)),
      done: Type.Optional(Type.Boolean({ description: 'true marks it done (once); false opens it again' })),
      ownerId: Type.Optional(OwnerId),
      leadId: target('lead'),
      opportunityId: target('opportunity'),
      contactId: target('contact'),
    },
    {
      description:
        'Only the fields sent change. At most one of leadId, opportunityId, contactId: it moves the activity there.',
      examples: [{ dueAt: '2026-12-02T14:30:00+02:00', notes: 'Moved: the client is away on Tuesday' }],
      additionalProperties: false,
    },
  ),
);

export const ActivityListQuery = Type.Object(
  {
    ...pageQueryProperties,
    updatedSince: syncQueryProperties(['updatedAt'], 'updatedAt').updatedSince,
    kind: Type.Optional(ActivityKind),
    leadId: Type.Optional(uuid({ description: "A lead's timeline" })),
    opportunityId: Type.Optional(uuid({ description: "An opportunity's timeline" })),
    contactId: Type.Optional(uuid({ description: "A contact's timeline" })),
    ownerId: Type.Optional(uuid({ description: "One user's activities" })),
    done: Type.Optional(Type.Boolean({ description: 'Only done (true) or open (false) activities' })),
    dueBefore: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only activities due before this instant' }),
    ),
    overdue: Type.Optional(
      Type.Boolean({
        description: 'true: only open activities whose due time has passed; false: all others',
      }),
    ),
  },
  { additionalProperties: false },
);
