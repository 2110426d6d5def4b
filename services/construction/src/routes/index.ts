import type { Routes } from './deps.ts';

/**
 * Every route construction serves, as declarations: the route checks run over them. Each area's
 * module adds its array here.
 */
export const ROUTES: Routes = [];
