import { Command } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { ScopeParams } from './common.ts';

/** What the flag server answers, passed on as it is (keys removed from lists). */
export const Upstream = Type.Unknown({ description: "The flag server's value (Unleash admin API)" });
export const UpstreamList = Type.Array(Type.Unknown(), {
  description: 'Rows as the flag server gives them, keys removed',
});

const Segment = Type.String({ minLength: 1, maxLength: 200 });

export const ProjectParams = Type.Composite([ScopeParams, Type.Object({ project: Segment })]);
export const FeatureParams = Type.Composite([ProjectParams, Type.Object({ feature: Segment })]);
export const EnvParams = Type.Composite([FeatureParams, Type.Object({ environment: Segment })]);
export const StrategyParams = Type.Composite([EnvParams, Type.Object({ strategy: Segment })]);
export const ApplicationParams = Type.Composite([ScopeParams, Type.Object({ application: Segment })]);
export const ServiceAccountParams = Type.Composite([ScopeParams, Type.Object({ id: Segment })]);
export const KeyParams = Type.Composite([ScopeParams, Type.Object({ name: Segment })]);

const FeatureType = Type.Union(
  ['release', 'experiment', 'operational', 'kill-switch', 'permission'].map((t) => Type.Literal(t)),
);

export const CreateFeatureBody = Command(
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100 }),
      description: Type.Optional(Type.String({ maxLength: 2000 })),
      type: Type.Optional(FeatureType),
      impressionData: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
);

export const DetailsBody = Command(
  Type.Object(
    {
      description: Type.Optional(Type.String({ maxLength: 2000 })),
      type: Type.Optional(FeatureType),
      stale: Type.Optional(Type.Boolean()),
      impressionData: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
);

const StrategyFields = {
  title: Type.Optional(Type.String({ maxLength: 200 })),
  disabled: Type.Optional(Type.Boolean()),
  sortOrder: Type.Optional(Type.Integer()),
  constraints: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()))),
  parameters: Type.Optional(Type.Record(Type.String(), Type.String())),
  variants: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()))),
  segments: Type.Optional(Type.Array(Type.Integer())),
};

export const CreateStrategyBody = Command(
  Type.Object(
    { name: Type.String({ minLength: 1, maxLength: 100 }), ...StrategyFields },
    { additionalProperties: false },
  ),
);

export const StrategyBody = Command(
  Type.Object(
    { name: Type.Optional(Type.String({ minLength: 1 })), ...StrategyFields },
    { additionalProperties: false, minProperties: 1 },
  ),
);

const Variant = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    weight: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    weightType: Type.Optional(Type.Union([Type.Literal('variable'), Type.Literal('fix')])),
    stickiness: Type.Optional(Type.String()),
    payload: Type.Optional(Type.Object({ type: Type.String(), value: Type.String() })),
  },
  { additionalProperties: false },
);

export const ValuesBody = Command(
  Type.Object(
    { variants: Type.Array(Variant, { minItems: 1, description: 'Laid over the read variants by name' }) },
    { additionalProperties: false },
  ),
);

export const ApplicationBody = Command(
  Type.Object(
    {
      description: Type.Optional(Type.String({ maxLength: 2000 })),
      url: Type.Optional(Type.String({ maxLength: 2000 })),
      color: Type.Optional(Type.String({ maxLength: 50 })),
      icon: Type.Optional(Type.String({ maxLength: 100 })),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
);

export const CreateServiceAccountBody = Command(
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 200 }),
      username: Type.String({ minLength: 1, maxLength: 200 }),
      rootRole: Type.Integer(),
    },
    { additionalProperties: false },
  ),
);

export const ServiceAccountBody = Command(
  Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      username: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      rootRole: Type.Optional(Type.Integer()),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
);

export const KeyView = Type.Object({
  name: Type.String(),
  tokens: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'Each with its secret' }),
});
