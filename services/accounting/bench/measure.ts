/** Timing helpers of the accounting benchmarks (no service imports: the load worker uses them). */

export const CONTROLLER = 'controller@dev.local';

export { closedLoop, median, quantile, round, sleep } from '@platform/kit/testing';
