import { defineEvents, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { Discipline, FirmStatus, Kind } from './schemas/firms.ts';
import { Coverage } from './schemas/insurance.ts';

/** Who ran the command: the principal id (a person's fid, or the service acting). */
const Actor = Type.String({ description: 'The principal that ran the command' });

/** The vendors service's events (spec 1, vendors events): the only ones its commands may emit. */
export const events = defineEvents('vendors', {
  'vendor.registered': {
    description: 'A firm was added',
    payload: Type.Object({ vendor_id: Uuid, kind: Kind, discipline: Discipline, status: FirmStatus, actor_fid: Actor }),
  },
  'vendor.status_changed': {
    description: 'A firm marked active or inactive',
    payload: Type.Object({ vendor_id: Uuid, status: FirmStatus, previous_status: FirmStatus, actor_fid: Actor }),
  },
  'vendor.contact_added': {
    description: 'A person added to a firm (the event carries ids, never the email or name)',
    payload: Type.Object({ vendor_id: Uuid, contact_id: Uuid, active: Type.Boolean(), actor_fid: Actor }),
  },
  'vendor.contact_access_changed': {
    description: 'A person allowed to sign in to the vendor portal, or stopped',
    payload: Type.Object({ vendor_id: Uuid, contact_id: Uuid, active: Type.Boolean(), actor_fid: Actor }),
  },
  'vendor.insurance_recorded': {
    description: 'A certificate recorded',
    payload: Type.Object({
      vendor_id: Uuid,
      certificate_id: Uuid,
      coverage: Coverage,
      starts_on: Type.String({ format: 'date' }),
      expires_on: Type.String({ format: 'date' }),
      actor_fid: Actor,
    }),
  },
});
