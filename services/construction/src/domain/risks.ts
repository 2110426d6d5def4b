import { conflict, notFound } from '@platform/kit';

/** Risks (spec 3, Registers): raised open; the status is open, mitigated, closed or happened, in any order. */
export const RISK_STATUSES = ['open', 'mitigated', 'closed', 'happened'] as const;
export type RiskStatus = (typeof RISK_STATUSES)[number];
export const RISK_LEVELS = ['low', 'medium', 'high'] as const;

export const riskNotFound = () => notFound('Risk', 'risk_not_found');

/** Setting the status a risk already has is refused (409 same_status, CON-162). */
export function requireStatusChange(current: string, next: string) {
  if (current === next) throw conflict('same_status', `The risk is already ${next}`);
}
