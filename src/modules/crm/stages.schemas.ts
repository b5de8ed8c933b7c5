// Schemas of the pipeline's stages: GET/POST /api/crm/stages, PATCH/DELETE /api/crm/stages/{id}.
import { Type } from 'typebox';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

const Ts = Type.String({ format: 'date-time' });

const Probability = Type.Number({
  minimum: 0,
  maximum: 100,
  description: 'The chance, in percent, that an opportunity at this stage is won (up to two decimals)',
});
const Position = Type.Integer({
  minimum: 0,
  maximum: 1000,
  description:
    'Where the stage sits in the pipeline, 0 first. Stages are renumbered 0, 1, 2… after every change, ' +
    'so a position past the end puts the stage last',
});
const Name = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'Unique among live stages, in any case',
});

export const Stage = named(
  'PipelineStage',
  Type.Object({
    id: Uuid,
    name: Type.String(),
    probability: Type.Number(),
    position: Type.Integer(),
    openCount: Type.Integer({ description: 'Open opportunities at this stage now' }),
    createdAt: Ts,
    updatedAt: Ts,
  }),
);

export const StageCreate = named(
  'PipelineStageCreate',
  Type.Object(
    { name: Name, probability: Probability, position: Type.Optional(Position) },
    {
      additionalProperties: false,
      examples: [{ name: 'Demo booked', probability: 40 }],
      description: 'A new stage; without position it goes last',
    },
  ),
);

export const StageUpdate = named(
  'PipelineStageUpdate',
  Type.Object(
    {
      name: Type.Optional(Name),
      probability: Type.Optional(Probability),
      position: Type.Optional(Position),
    },
    {
      additionalProperties: false,
      examples: [{ probability: 60, position: 2 }],
      description: 'Only the fields sent change',
    },
  ),
);
