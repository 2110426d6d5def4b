import type { Db } from '@platform/kit';
import type { Catalog } from '../domain/catalog.ts';
import type { RouteDecision, RouteRequest, Router } from './ports.ts';

/** Routing decisions (owned by the routing area). */
export class RoutingEngine implements Router {
  constructor(
    readonly db: Db,
    readonly catalog: Catalog,
  ) {}

  async decide(req: RouteRequest): Promise<RouteDecision> {
    return {
      model: req.model,
      substituted: false,
      classifier: null,
      family: req.model.family ?? null,
      tier: req.model.tier ?? null,
      outcome: 'kept',
      rule_id: null,
      grading_cost_micros: 0,
    };
  }
}
