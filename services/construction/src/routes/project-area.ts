import type { Routes } from './deps.ts';
import { projectRoutes } from './projects.ts';
import { reportRoutes } from './reports.ts';
import { stageRoutes } from './stages.ts';

/** The routes of projects, their stages and the weekly portfolio report. */
export const PROJECT_ROUTES: Routes = [...projectRoutes, ...stageRoutes, ...reportRoutes];
