import type { Routes } from './deps.ts';
import { GATEWAY_ROUTES } from './gateway.ts';
import { ME_ROUTES } from './me.ts';
import { PEOPLE_ROUTES } from './people.ts';
import { PRINCIPAL_ROUTES } from './principals.ts';

/** Every declared /v1 route identity serves (issue 15.4): the route checks run over them. */
export const ROUTES: Routes = [...ME_ROUTES, ...PEOPLE_ROUTES, ...PRINCIPAL_ROUTES, ...GATEWAY_ROUTES];
