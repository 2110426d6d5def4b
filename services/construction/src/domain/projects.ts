import { conflict } from '@platform/kit';

/** A completed or cancelled project takes no more work (CON-034, CON-035). */
export function requireOpenProject(project: { status: string }) {
  if (project.status === 'completed' || project.status === 'cancelled') {
    throw conflict('project_closed', `The project is ${project.status} and takes no more work`);
  }
}
