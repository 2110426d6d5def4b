import { defineEvents, type EventOf, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { Reference } from './schemas/documents.ts';

/** The documents service's events: registrations and changes, by id (never a filename or metadata value). */
export const events = defineEvents('documents', {
  'documents.created': {
    description: 'A document was registered',
    payload: Type.Object({
      id: Uuid,
      storage_account: Type.String(),
      container: Type.String(),
      references: Type.Array(Reference),
    }),
  },
  'documents.updated': {
    description: "A document's references or metadata changed",
    payload: Type.Object({ id: Uuid }),
  },
});

export type DocumentsEvent = EventOf<typeof events>;
