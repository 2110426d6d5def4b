/**
 * A WebSocket client for tests: Node 20 has no global WebSocket, and undici's (a kit dependency)
 * speaks the browser's API, so a test drives a terminal as the web UI does.
 */
export { WebSocket } from 'undici';
