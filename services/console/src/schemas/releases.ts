import { Command } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { ScopeParams } from './common.ts';

// Names are checked by the release rules (422 invalid_release_name / invalid_namespace) rather than
// by a schema pattern, so the refusal says what a Helm name is.
export const ReleaseParams = Type.Composite([
  ScopeParams,
  Type.Object({ namespace: Type.String(), name: Type.String() }),
]);

export const Release = Type.Object({
  name: Type.String(),
  namespace: Type.String(),
  revision: Type.Integer(),
  updated: Type.String({ description: "As Helm's list prints it" }),
  status: Type.String(),
  chart: Type.String(),
  app_version: Type.String(),
});

export const Revision = Type.Object({
  revision: Type.Integer(),
  updated: Type.String(),
  status: Type.String(),
  chart: Type.String(),
  app_version: Type.String(),
  description: Type.String(),
});

export const RollbackBody = Command(
  Type.Object(
    { revision: Type.Integer({ minimum: 1, description: 'A revision in the history that is not the deployed one' }) },
    { additionalProperties: false },
  ),
);

export const RollbackOutcome = Type.Object({
  namespace: Type.String(),
  name: Type.String(),
  rolled_back_to: Type.Integer(),
  revision: Type.Integer({ description: 'The newest revision after the rollback, read from helm history' }),
  status: Type.String(),
  description: Type.String(),
  chart: Type.String(),
  app_version: Type.String(),
});
