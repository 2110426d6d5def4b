import { AppError } from '@platform/kit';

/**
 * The vendors service as construction needs it: a firm with its status and its people's ids, and
 * the names of several firms, read with the vendors service token on behalf of the caller (spec 3:
 * firms, contacts and insurance stay in the vendors service). The HTTP client is
 * clients/vendors-http.ts; a failure or hang is 502 vendors_unavailable.
 */
export interface Firm {
  id: string;
  name: string;
  status: 'active' | 'inactive';
  /** The ids of the firm's contacts (people at the firm), as vendors lists them. */
  contact_ids: string[];
}

export interface Vendors {
  /** The firm, or null when vendors knows no such firm; throws 502 vendors_unavailable when it does not answer. */
  firm(id: string, onBehalfOf: string): Promise<Firm | null>;
  /** The firms of these ids that vendors knows (at most 100 ids); throws 502 vendors_unavailable when it does not answer. */
  firms(ids: readonly string[], onBehalfOf: string): Promise<Pick<Firm, 'id' | 'name' | 'status'>[]>;
}

/** 502 vendors_unavailable: the vendors service did not answer, answered something else, or has no address. */
export const vendorsUnavailable = (why: string) =>
  new AppError(502, 'vendors_unavailable', `The vendors service did not answer: ${why}`);
