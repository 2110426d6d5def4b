/** The scheduler token the job tests configure, and the headers a scheduler call carries. */
export const SCHEDULER = 'workspace-harness-scheduler-token';
export const asScheduler = { headers: { 'x-platform-scheduler-token': SCHEDULER } };
