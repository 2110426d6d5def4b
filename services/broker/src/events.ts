import { defineEvents, type EventOf } from '@platform/kit';

/**
 * The broker's events: none today (usage rows and credentials stay in its database). Declared
 * so its commands get a typed emit like every service's, and the event document lists it.
 */
export const events = defineEvents('broker', {});

export type BrokerEvent = EventOf<typeof events>;
