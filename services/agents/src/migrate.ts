/** The migrate entry: applies the agents service's migrations and exits (a rollout runs it before starting the new version). */
import { runMigrate } from '@platform/kit';
import { MIGRATIONS } from './migrations.ts';

await runMigrate('agents', MIGRATIONS);
