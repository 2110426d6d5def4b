import { CONTACT_ROUTES } from './contacts.ts';
import type { Routes } from './deps.ts';
import { FIRM_ROUTES } from './firms.ts';
import { INSURANCE_ROUTES } from './insurance.ts';
import { PORTAL_ROUTES } from './portal.ts';

/** Every route vendors serves, as declarations (issue 15.4): the route checks run over them. */
export const ROUTES: Routes = [...FIRM_ROUTES, ...CONTACT_ROUTES, ...INSURANCE_ROUTES, ...PORTAL_ROUTES];
