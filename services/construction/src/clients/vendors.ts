/**
 * The vendors service as construction needs it: a firm's status, read with the vendors service
 * token on behalf of the caller (spec 3: firms stay in the vendors service). The HTTP client and
 * its fake live beside this interface; a failure or hang is 502 vendors_unavailable.
 */
export interface Firm {
  id: string;
  name: string;
  status: 'active' | 'inactive';
}

export interface Vendors {
  /** The firm, or null when vendors knows no such firm; throws 502 vendors_unavailable when it does not answer. */
  firm(id: string, onBehalfOf: string): Promise<Firm | null>;
}
