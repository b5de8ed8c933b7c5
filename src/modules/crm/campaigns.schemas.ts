// TypeBox schemas of CRM campaigns: the campaign, its members and the audience it may reach.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable, orNull } from '../../platform/http/nullable.ts';
import { idParams, Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { ConsentChannelSchema as ConsentChannel } from '../contacts/index.ts';
import { CAMPAIGN_STATUSES } from './crm.tables.ts';

const Timestamp = Type.String({ format: 'date-time' });
const Day = Type.String({ format: 'date' });

export const CampaignStatus = named(
  'CampaignStatus',
  stringEnum(CAMPAIGN_STATUSES, { description: 'draft, active or completed' }),
);

const Counts = named(
  'CampaignCounts',
  Type.Object({
    members: Type.Integer({ description: 'Members now (removed ones not counted)' }),
    included: Type.Integer({ description: 'Members the campaign may reach on its channel now' }),
    excluded: Type.Integer({ description: 'Members it may not reach (no consent, no address, deleted)' }),
  }),
);

export const Campaign = named(
  'Campaign',
  Type.Object({
    id: Uuid,
    name: Type.String(),
    channel: ConsentChannel,
    status: CampaignStatus,
    description: nullable(Type.String()),
    startsOn: nullable(Day),
    endsOn: nullable(Day),
    counts: Counts,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = { type: 'string' as const, maxLength: 5000, description: 'Free text; blank is null' };
const OptionalDay = (description: string) =>
  Type.Optional(orNull<string>({ type: 'string', format: 'date', description }));

export const CampaignCreate = named(
  'CampaignCreate',
  Type.Object(
    {
      name: Name,
      channel: ConsentChannel,
      status: Type.Optional(CampaignStatus),
      description: Type.Optional(orNull<string>(Description)),
      startsOn: OptionalDay('First day'),
      endsOn: OptionalDay('Last day; not before startsOn'),
    },
    {
      description: 'status defaults to draft.',
      examples: [
        {
          name: 'Summer kitchen specials',
          channel: 'email',
          description: 'Ten per cent off installations booked in December',
          startsOn: '2026-12-01',
          endsOn: '2026-12-31',
        },
      ],
      additionalProperties: false,
    },
  ),
);

export const CampaignUpdate = named(
  'CampaignUpdate',
  Type.Object(
    {
      name: Type.Optional(Name),
      channel: Type.Optional(ConsentChannel),
      status: Type.Optional(CampaignStatus),
      description: Type.Optional(orNull<string>(Description)),
      startsOn: OptionalDay('First day; null clears it'),
      endsOn: OptionalDay('Last day; null clears it'),
    },
    {
      description: 'Only the fields sent change.',
      examples: [{ status: 'active' }],
      additionalProperties: false,
    },
  ),
);

const IdList = (what: string) =>
  Type.Optional(
    Type.Array(Uuid, {
      maxItems: 1000,
      description: `${what} to add; ones already members are counted, not added again`,
    }),
  );

export const CampaignMembersAdd = named(
  'CampaignMembersAdd',
  Type.Object(
    { leadIds: IdList('Leads'), contactIds: IdList('Contacts') },
    {
      examples: [{ leadIds: [], contactIds: [] }],
      additionalProperties: false,
    },
  ),
);

export const CampaignMembersAdded = named(
  'CampaignMembersAdded',
  Type.Object({
    ...Campaign.properties,
    added: Type.Integer({ description: 'Members this call added' }),
    alreadyMembers: Type.Integer({ description: 'Named in this call but members already' }),
  }),
);

const audienceEntry = {
  memberId: Uuid,
  leadId: nullable(Uuid, { description: 'The lead, when the member is one' }),
  contactId: nullable(Uuid, {
    description: "The contact: the member, or a converted lead's contact (which then decides)",
  }),
  name: Type.String(),
  address: nullable(Type.String(), {
    description: 'Where the channel reaches them: an e-mail address, a phone number or a postal address',
  }),
};

export const AudienceMember = named('AudienceMember', Type.Object(audienceEntry));
export const ExcludedMember = named(
  'ExcludedMember',
  Type.Object({ ...audienceEntry, reason: Type.String({ description: 'Why, in words' }) }),
);

export const CampaignAudience = named(
  'CampaignAudience',
  Type.Object({
    campaignId: Uuid,
    channel: ConsentChannel,
    counts: Counts,
    included: Type.Array(AudienceMember),
    excluded: Type.Array(ExcludedMember),
  }),
);

export const CampaignListQuery = Type.Object(
  {
    status: Type.Optional(CampaignStatus),
    channel: Type.Optional(ConsentChannel),
  },
  { additionalProperties: false },
);

export const MemberParams = idParams('id', 'memberId');
