import { Envelope } from '@platform/kit';
import { dayOf, freshness, HEALTH, health, PHASE_OF, STAGES, type Stage } from '../domain/health.ts';
import type { ProjectKind, ProjectStatus } from '../domain/projects.ts';
import { PortfolioReport, type PortfolioReport as Report, ReportQuery, type ReportRow } from '../schemas/projects.ts';
import { reportRows } from '../store/portfolio.ts';
import { type Routes, route } from './deps.ts';

const zeroes = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

export const reportRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/reports/portfolio',
    action: 'ReadReports',
    tags: ['reports'],
    summary: 'The weekly portfolio report: each project with its figures, and totals by health and by stage',
    description:
      'Filters: status, kind, stage, owner_fid, region. Per project: stage, phase, health, progress, freshness, ' +
      'next milestone due, last update, budget, committed and actual (minor units), as of today. Read from the ' +
      'figures kept on each project row only (one row per project), never by scanning tasks, cost events or ' +
      'updates. All matching projects, by code (not paged: one report).',
    query: ReportQuery,
    response: Envelope(PortfolioReport),
    handler: async (input, deps) => {
      const today = dayOf(deps.clock());
      const rows = await reportRows(deps.database.db, input.query, today);
      const report: Report = {
        as_of: today,
        projects: [],
        totals: {
          projects: rows.length,
          by_health: zeroes(HEALTH),
          by_stage: zeroes(STAGES),
          budget_minor: 0,
          committed_minor: 0,
          actual_minor: 0,
        },
      };
      for (const r of rows) {
        const figures = {
          next_milestone_due: r.next_milestone_due,
          last_update_on: r.last_update_on,
          budget_minor: Number(r.budget_minor),
          committed_minor: Number(r.committed_minor),
          actual_minor: Number(r.actual_minor),
        };
        const row: ReportRow = {
          id: r.id,
          code: r.code,
          name: r.name,
          kind: r.kind as ProjectKind,
          status: r.status as ProjectStatus,
          stage: r.stage as Stage,
          phase: PHASE_OF[r.stage as Stage],
          owner_fid: r.owner_fid,
          region: r.region,
          health: health(figures, today),
          progress: Number(r.progress),
          freshness: freshness(r.last_update_on, today),
          ...figures,
        };
        report.projects.push(row);
        report.totals.by_health[row.health] += 1;
        report.totals.by_stage[row.stage] += 1;
        report.totals.budget_minor += row.budget_minor;
        report.totals.committed_minor += row.committed_minor;
        report.totals.actual_minor += row.actual_minor;
      }
      return input.reply.envelope(report);
    },
  }),
];
