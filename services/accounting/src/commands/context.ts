import type { Db, Principal } from '@platform/kit';

/** What a command runs with: the transaction, the caller and the command's clock reading. */
export interface CommandCtx {
  trx: Db;
  principal: Principal;
  now: Date;
}

export interface WhyValue {
  code?: string;
  detail?: string;
}

export const SERVICE = 'accounting';
